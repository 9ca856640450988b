import pytest

from webshootout.services.postgres import Postgres
from webshootout.config.settings import default_split

pytestmark = pytest.mark.integration


def test_starts_seeds_resets_and_removes_itself(tmp_path, no_leftovers):
    directory = tmp_path / "pg"
    with Postgres(directory, default_split()[0], log=lambda m: None) as pg:
        assert pg.query("SELECT count(*), min(id), max(id) FROM world") == [(10000, 1, 10000)]
        pg.reset()
        pg.query("INSERT INTO usersessions VALUES ('a', '{\"count\":1}') RETURNING uid")
        pg.query("SELECT randomnumber FROM world WHERE id = 5")
        assert pg.calls_touching("world") == 0  # the harness's own admin queries are not the framework's
        pg.reset()
        assert pg.query("SELECT count(*) FROM usersessions") == [(0,)]
        sockets = pg.directory / "sockets"
        assert sockets.stat().st_mode & 0o777 == 0o700
        assert all(p.stat().st_mode & 0o077 == 0 for p in sockets.glob(".s.PGSQL.*") if not p.name.endswith("lock"))
        url = pg.connection.url
        assert url.startswith("postgresql://bench:") and "@127.0.0.1:" in url
        pid = pg.running.pid
        used = pg.directory
    assert not used.exists() and not directory.exists()
    import psutil
    assert not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE


def test_stops_when_the_body_fails(tmp_path, no_leftovers):
    directory = tmp_path / "pg"
    with pytest.raises(RuntimeError, match="boom"):
        with Postgres(directory, default_split()[0], log=lambda m: None) as pg:
            used = pg.directory
            raise RuntimeError("boom")
    assert not used.exists()


def test_framework_role_can_connect_with_the_generated_password(tmp_path, no_leftovers):
    import psycopg
    with Postgres(tmp_path / "pg", default_split()[0], log=lambda m: None) as pg:
        with psycopg.connect(pg.connection.url) as conn:
            assert conn.execute("SELECT randomnumber FROM world WHERE id = 1").fetchone()[0] >= 1
        assert pg.calls_touching("world") >= 1


def test_a_lock_held_by_a_server_fails_the_reset_in_time_and_the_log_is_kept(tmp_path, no_leftovers):
    import time

    import psycopg

    from webshootout.services.postgres import PostgresError

    kept = tmp_path / "postgres.log"
    with Postgres(tmp_path / "pg", default_split()[0], log=lambda m: None, keep_log=kept) as pg:
        pg.reset()
        assert pg.query("SELECT reloptions FROM pg_class WHERE relname = 'usersessions'") == \
            [(["autovacuum_enabled=false"],)]
        with psycopg.connect(pg.connection.url) as server:  # a server stuck inside its transaction
            server.execute("INSERT INTO usersessions VALUES ('v', '{\"count\":1}')")
            started = time.monotonic()
            with pytest.raises(PostgresError, match="lock timeout") as failed:
                pg.reset()
            assert "idle in transaction, last statement: INSERT INTO usersessions" in str(failed.value)
            assert time.monotonic() - started < 20
            server.rollback()
        pg.reset()  # once the lock is gone the database is usable again
    assert "database system is ready to accept connections" in kept.read_text()


def test_another_local_user_cannot_reach_the_superuser_socket(tmp_path, no_leftovers):
    import subprocess

    from webshootout.services.postgres import find_bindir

    with Postgres(tmp_path / "pg", default_split()[0], log=lambda m: None) as pg:
        psql = find_bindir(lambda m: None) / "psql"
        argv = ["runuser", "-u", "nobody", "--", str(psql), "-h", str(pg.directory / "sockets"), "-p",
                str(pg.connection.port), "-U", "postgres", "-c", "SELECT 1"]
        denied = subprocess.run(argv, capture_output=True, text=True, timeout=30)
        assert denied.returncode != 0 and "Permission denied" in denied.stderr, denied.stderr


def test_fortune_is_seeded_and_reset_restores_what_a_trial_wrote(tmp_path, no_leftovers):
    import psycopg

    from webshootout.services.postgres import FORTUNES

    with Postgres(tmp_path / "pg", default_split()[0], log=lambda m: None) as pg:
        assert pg.query("SELECT id, message FROM fortune ORDER BY id") == list(FORTUNES)
        world = pg.query("SELECT id, randomnumber FROM world ORDER BY id")
        with psycopg.connect(pg.connection.url, autocommit=True) as server:
            server.execute("UPDATE world SET randomnumber = randomnumber % 10000 + 1 WHERE id <= 500")
            server.execute("SELECT randomnumber FROM world WHERE id = 1")
            server.execute("DELETE FROM fortune WHERE id = 3")
            server.execute("INSERT INTO fortune VALUES (99, 'extra')")
        counted = pg.statements_on("world")
        assert (counted.selects, counted.rows_read, counted.updates, counted.rows_updated) == (1, 1, 1, 500)
        pg.reset()
        assert pg.query("SELECT id, randomnumber FROM world ORDER BY id") == world
        assert pg.query("SELECT id, message FROM fortune ORDER BY id") == list(FORTUNES)
        assert pg.statements_on("world").selects == 0
        with psycopg.connect(pg.connection.url) as server:  # the seeded copy is out of the servers' reach
            with pytest.raises(psycopg.errors.InsufficientPrivilege):
                server.execute("SELECT count(*) FROM shootout_seed.world")


def test_a_reset_that_deadlocks_with_a_servers_late_transaction_is_tried_again(tmp_path, no_leftovers):
    """A slow server still updating world after the load stopped: its transaction holds the last row and then
    wants the first, which the restore (in id order) took meanwhile. PostgreSQL aborts the restore's statement
    (its wait began first, so its backend finds the cycle); the reset goes again once the server commits."""
    import threading
    import time

    import psycopg

    with Postgres(tmp_path / "pg", default_split()[0], log=lambda m: None) as pg:
        seeded = pg.query("SELECT id, randomnumber FROM world ORDER BY id")
        with psycopg.connect(pg.connection.url, autocommit=True) as trial:  # rows the last trial changed
            trial.execute("UPDATE world SET randomnumber = randomnumber % 10000 + 1 WHERE id IN (1, 10000)")
        failures: list[BaseException] = []

        def reset() -> None:
            try:
                pg.reset()
            except BaseException as exc:  # reported by the test thread
                failures.append(exc)

        with psycopg.connect(pg.connection.url) as server:
            server.execute("UPDATE world SET randomnumber = 7 WHERE id = 10000")
            resetting = threading.Thread(target=reset)
            resetting.start()
            deadline = time.monotonic() + 20
            while not pg.query("SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock'"):
                assert time.monotonic() < deadline, "the reset never waited for the server's row"
                time.sleep(0.05)
            server.execute("UPDATE world SET randomnumber = 7 WHERE id = 1")  # the deadlock; the reset yields
            server.commit()
        resetting.join(timeout=30)
        assert not resetting.is_alive() and not failures, failures
        assert pg.query("SELECT id, randomnumber FROM world ORDER BY id") == seeded
