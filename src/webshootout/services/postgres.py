"""An ephemeral PostgreSQL: initdb into a directory, start on a free port, seed, reset, stop and remove."""

from __future__ import annotations

import glob
import os
import re
import secrets
import shutil
import signal
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import psycopg

from ..system import claims, process, users
from ..stacks import provision
from ..workloads.base import Statements
from ..workloads.registry import EMPTIED_TABLES, SEEDED_TABLES

WORLD_ROWS = 10_000
ROLE = "bench"
DATABASE = "bench"
# TechEmpower's fortune table (docs/workloads.md, Data): the same ids and texts, so results compare.
FORTUNES = (
    (1, "fortune: No such file or directory"),
    (2, "A computer scientist is someone who fixes things that aren't broken."),
    (3, "After enough decimal places, nobody gives a damn."),
    (4, "A bad random number generator: 1, 1, 1, 1, 1, 4.33e+67, 1, 1, 1"),
    (5, "A computer program does what you tell it to do, not what you want it to do."),
    (6, "Emacs is a nice operating system, but I prefer UNIX. — Tom Christaensen"),
    (7, "Any program that runs right is obsolete."),
    (8, "A list is only as strong as its weakest link. — Donald Knuth"),
    (9, "Feature: A bug with seniority."),
    (10, "Computers make very fast, very accurate mistakes."),
    (11, '<script>alert("This should not be displayed in a browser alert box.");</script>'),
    (12, "フレームワークのベンチマーク"),
)
# The seeded rows, kept where the frameworks' role cannot reach them: reset() restores what a trial changed.
SEED_SCHEMA = "shootout_seed"
RESTORED_TABLES = {"world": ("randomnumber",), "fortune": ("message",),  # table: its columns beside id
                   **{table.name: table.restored for table in SEEDED_TABLES}}
# A reset that deadlocks with a server's transaction is tried again (Postgres.reset): a second later, so the
# transaction PostgreSQL let through has ended; a deadlock in every attempt is a fault.
RESET_ATTEMPTS = 3
RESET_RETRY_S = 1.0


class PostgresError(RuntimeError):
    pass


def find_bindir(log) -> Path:
    """The directory holding initdb and postgres; installs Debian's postgresql when neither is found."""
    for attempt in range(2):
        found = shutil.which("initdb")
        if found:
            return Path(os.path.realpath(found)).parent
        candidates = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"),
                            key=lambda p: int(Path(p).parent.parent.name) if Path(p).parent.parent.name.isdigit() else 0)
        if candidates:
            return Path(candidates[-1]).parent
        if attempt == 0:
            provision.apt_install(["postgresql", "postgresql-contrib"], log)
    raise PostgresError("PostgreSQL not found: no initdb on PATH or under /usr/lib/postgresql/*/bin")


def _service_user() -> str | None:
    """PostgreSQL refuses to run as root: use the postgres system user (created by Debian's package)."""
    if os.geteuid() != 0:
        return None
    return users.ensure("postgres").pw_name


@dataclass(frozen=True)
class Connection:
    host: str
    port: int
    user: str
    password: str
    database: str

    @property
    def url(self) -> str:
        return f"postgresql://{self.user}:{self.password}@{self.host}:{self.port}/{self.database}"

    def env(self) -> dict[str, str]:
        return {"DATABASE_URL": self.url, "PGHOST": self.host, "PGPORT": str(self.port), "PGUSER": self.user,
                "PGPASSWORD": self.password, "PGDATABASE": self.database}


def server_settings(listen: str, max_connections: int) -> list[str]:
    """The -c options of every cluster of ours, listening on `listen` only."""
    # synchronous_commit=off: the session workload measures frameworks, not this VM's fsync latency.
    # No timed or WAL-size checkpoint may fall inside a trial: reset() checkpoints before each one.
    return ["-c", f"listen_addresses={listen}", "-c", "shared_preload_libraries=pg_stat_statements",
            "-c", f"max_connections={max_connections}", "-c", "synchronous_commit=off",
            "-c", "pg_stat_statements.track=top", "-c", "unix_socket_permissions=0700",
            "-c", "checkpoint_timeout=1h", "-c", "max_wal_size=8GB"]


class Cluster:
    """A cluster of ours as the harness uses it: seeded once, reset before every trial, queried to verify it.
    A subclass starts and stops the server (setting `running`, `version`) and says how the superuser
    connects (`_admin`).

    Use as a context manager: it always stops and removes everything it made, also on errors and Ctrl-C."""

    running = None  # what the sampler reads: `.group`, and `.alive()`
    _reader: psycopg.Connection | None = None  # query()'s connection
    connection: Connection | None = None  # for the frameworks' role, once seeded
    version = ""

    def __enter__(self):
        try:
            self.start()
        except BaseException:
            self.stop()
            raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        raise NotImplementedError

    def _admin(self, database: str = "postgres") -> psycopg.Connection:
        """An autocommit connection to `database` as the superuser `postgres`."""
        raise NotImplementedError

    def _password_sql(self, password: str) -> str:
        """The benchmark role's password as CREATE ROLE is given it."""
        return password

    def _wait_ready(self, logfile: Path) -> None:
        deadline = time.monotonic() + 30
        while True:
            if not self.running.alive():
                raise PostgresError(f"postgres exited at start:\n{process.log_tail(logfile)}")
            try:
                self._admin().close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise PostgresError(f"postgres not ready after 30s:\n{process.log_tail(logfile)}") from None
                time.sleep(0.1)

    def _create(self, host: str, port: int) -> None:
        password = secrets.token_urlsafe(18)
        with self._admin() as conn:
            conn.execute(f"CREATE ROLE {ROLE} LOGIN PASSWORD '{self._password_sql(password)}'")
            conn.execute(f"CREATE DATABASE {DATABASE} OWNER {ROLE}")
        with self._admin(DATABASE) as conn:
            conn.execute("CREATE EXTENSION pg_stat_statements")
            conn.execute(f"GRANT pg_read_all_stats TO {ROLE}")
            conn.execute(f"SET ROLE {ROLE}")
            conn.execute("CREATE TABLE world (id integer PRIMARY KEY, randomnumber integer NOT NULL)")
            conn.execute("INSERT INTO world SELECT i, 1 + floor(random() * 10000)::int "
                         f"FROM generate_series(1, {WORLD_ROWS}) AS i")
            conn.execute("CREATE TABLE fortune (id integer PRIMARY KEY, message text NOT NULL)")
            with conn.cursor() as cursor:
                cursor.executemany("INSERT INTO fortune (id, message) VALUES (%s, %s)", FORTUNES)
            conn.execute("CREATE TABLE usersessions (uid text PRIMARY KEY, data text NOT NULL)")
            for table in SEEDED_TABLES:
                conn.execute(f"CREATE TABLE {table.name} ({table.columns})")
                conn.execute(f"INSERT INTO {table.name} {table.seed}")
            conn.execute("RESET ROLE")
            conn.execute(f"CREATE SCHEMA {SEED_SCHEMA}")
            for table in RESTORED_TABLES:
                conn.execute(f"CREATE TABLE {SEED_SCHEMA}.{table} AS TABLE public.{table}")
            conn.execute("ANALYZE")
        self.connection = Connection(host, port, ROLE, password, DATABASE)

    def reset(self) -> None:
        """Puts the database in the same state before every trial: world and fortune as seeded, session tables
        empty, statement statistics zero, no checkpoint or autovacuum due.

        Autovacuum would wake at a random moment of some trials (the session workload dirties a row per
        request) and not of others; the tables are emptied before every trial, so it has nothing to keep up.
        A lock a server still holds, or any other error, raises PostgresError within the timeouts. A deadlock
        is tried again: a slow server may still run a transaction the last load left queued (Django's runserver
        works off 64 connections' updates after the load stopped), taking world's rows in its own order while
        the restore takes them in id order; PostgreSQL aborts one of the two, and that transaction soon ends.
        """
        for attempt in range(1, RESET_ATTEMPTS + 1):
            try:
                self._reset_once()
                return
            except psycopg.errors.DeadlockDetected as exc:
                if attempt == RESET_ATTEMPTS:
                    raise _reset_failed(exc, f" ({RESET_ATTEMPTS} attempts)") from None
                time.sleep(RESET_RETRY_S)
            except psycopg.errors.LockNotAvailable as exc:
                raise _reset_failed(exc, holders=self._lock_holders()) from None
            except psycopg.Error as exc:
                raise _reset_failed(exc) from None

    def _lock_holders(self) -> str:
        """What the servers' own connections are doing inside a transaction: the one that keeps a lock is
        among them, and its state and last statement say which handler left it (an "idle in transaction"
        connection is a transaction its framework never ended)."""
        try:
            rows = self.query("SELECT pid, state, left(query, 80) FROM pg_stat_activity "
                              "WHERE usename = %s AND xact_start IS NOT NULL ORDER BY xact_start", (ROLE,))
        except psycopg.Error:
            return ""  # the reset's own error is the one to report
        return "; ".join(f"backend {pid} {state}, last statement: {text}" for pid, state, text in rows)

    def _reset_once(self) -> None:
        with self._admin(DATABASE) as conn:
            conn.execute("SET lock_timeout = '5s'")
            conn.execute("SET statement_timeout = '60s'")
            for table in EMPTIED_TABLES:
                if conn.execute("SELECT to_regclass(%s)", (table,)).fetchone()[0] is not None:
                    conn.execute(f"TRUNCATE {table}")
                    conn.execute(f"ALTER TABLE {table} SET (autovacuum_enabled = false)")
            for table, columns in RESTORED_TABLES.items():
                _restore(conn, table, columns)
            conn.execute("SELECT pg_stat_statements_reset()")
            conn.execute("CHECKPOINT")

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """The rows of `sql`, read as the superuser on one connection kept for the cluster's life: a connection
        per call started a backend each (~7 ms, more on a busy machine), and a check reads dozens (crud ~60,
        a row per answer). Autocommit: each statement sees what was committed before it, as on a new connection.
        A connection that failed is dropped, and the next call opens another."""
        if self._reader is None or self._reader.closed:
            self._reader = self._admin(DATABASE)
        try:
            return self._reader.execute(sql, params).fetchall()
        except psycopg.OperationalError:
            self._close_reader()
            raise

    def _close_reader(self) -> None:
        reader, self._reader = self._reader, None
        if reader is not None:
            reader.close()

    def calls_touching(self, table: str) -> int:
        """Executions of the frameworks' statements that mention `table`, since the last reset."""
        rows = self.query("SELECT coalesce(sum(s.calls), 0) FROM pg_stat_statements s "
                          "JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = %s AND s.query ILIKE %s",
                          (ROLE, f"%{table}%"))
        return int(rows[0][0])

    def statements_on(self, table: str) -> Statements:
        """The frameworks' SELECT and UPDATE statements that mention `table` since the last reset: their
        executions and the rows they returned or changed, as pg_stat_statements counts them."""
        rows = self.query("SELECT s.query, s.calls, s.rows FROM pg_stat_statements s "
                          "JOIN pg_roles r ON r.oid = s.userid WHERE r.rolname = %s AND s.query ILIKE %s",
                          (ROLE, f"%{table}%"))
        counts = {"select": [0, 0], "update": [0, 0]}
        for text, calls, affected in rows:
            kind = statement_kind(text)
            if kind in counts:
                counts[kind][0] += calls
                counts[kind][1] += affected
        return Statements(*counts["select"], *counts["update"])


def statement_kind(sql: str) -> str:
    """"select", "update" or "other": an UPDATE may follow a WITH (a common table expression of the rows)."""
    words = re.findall(r"[a-z]+", re.sub(r"--[^\n]*|/\*.*?\*/", " ", sql.lower(), flags=re.S))
    if not words:
        return "other"
    if words[0] == "with":
        return "update" if "update" in words else ("select" if "select" in words else "other")
    return words[0] if words[0] in ("select", "update") else "other"


def _reset_failed(exc: psycopg.Error, after: str = "", holders: str = "") -> PostgresError:
    held = f"\n  the server's connections in a transaction: {holders}" if holders else ""
    return PostgresError(f"resetting the database before a trial failed{after}: {type(exc).__name__}: "
                         f"{str(exc).strip()}{held}")


def _restore(conn: psycopg.Connection, table: str, columns: tuple[str, ...]) -> None:
    """Puts back the seeded rows of `table` where they differ and restarts its identity (if it has one) after the
    seed's ids; VACUUM then clears the dead rows a trial left. Row by row rather than TRUNCATE, whose lock an
    idle server transaction would block."""
    seed = f"{SEED_SCHEMA}.{table}"
    sequence = conn.execute("SELECT pg_get_serial_sequence(%s, 'id')", (table,)).fetchone()[0]
    if sequence is not None:  # a create then a delete leaves the rows as seeded but the identity moved on
        conn.execute(f"SELECT setval(%s, (SELECT max(id) FROM {seed}))", (sequence,))
    changed = conn.execute(f"SELECT count(*) FROM ((TABLE {table} EXCEPT TABLE {seed}) UNION ALL "
                           f"(TABLE {seed} EXCEPT TABLE {table})) AS differing").fetchone()[0]
    if changed == 0:
        return
    conn.execute(f"DELETE FROM {table} t WHERE NOT EXISTS (SELECT 1 FROM {seed} s WHERE s.id = t.id)")
    updated = ", ".join(f"{column} = excluded.{column}" for column in columns)
    differs = " OR ".join(f"{table}.{column} IS DISTINCT FROM excluded.{column}" for column in columns)
    conn.execute(f"INSERT INTO {table} TABLE {seed} ON CONFLICT (id) DO UPDATE SET "
                 f"{updated} WHERE {differs}")
    conn.execute(f"VACUUM (ANALYZE) {table}")


class Postgres(Cluster):
    """A cluster on this machine; the harness reaches it as the superuser through a unix socket only the
    cluster's owner may enter."""

    def __init__(self, directory: Path, cpus: tuple[int, ...], log=print, max_connections: int = 400,
                 keep_log: Path | None = None):
        self.directory = directory
        self.cpus = cpus
        self.log = log
        self.keep_log = keep_log  # where the server's log is copied before the cluster is removed
        self.max_connections = max_connections
        self.running: process.Running | None = None

    def start(self) -> None:
        bindir = find_bindir(self.log)
        user = _service_user()
        if user and not users.reachable_by_others(self.directory.parent):
            # The postgres user cannot enter a private parent (a 0700 temp dir): use a directory of its own.
            self.directory = Path(tempfile.mkdtemp(prefix="webshootout-pg-"))
        data, sockets = self.directory / "data", self.directory / "sockets"
        if self.directory.exists():
            shutil.rmtree(self.directory)
        sockets.mkdir(parents=True)
        claims.claim(self.directory)  # a later sweep removes the cluster if this harness is killed
        if user:
            shutil.chown(self.directory, user)
            shutil.chown(sockets, user)
        # Local connections are trusted as the superuser: only the cluster's owner (and root) may reach them.
        sockets.chmod(0o700)
        logfile = self.directory / "postgres.log"
        init = subprocess.run([str(bindir / "initdb"), "-D", str(data), "-U", "postgres", "--auth-local=trust",
                               "--auth-host=scram-sha-256", "-E", "UTF8", "--locale=C"],
                              capture_output=True, text=True, user=user)
        if init.returncode != 0:
            raise PostgresError(f"initdb failed: {init.stderr.strip()[-1500:]}")
        self.version = subprocess.run([str(bindir / "postgres"), "--version"], capture_output=True,
                                      text=True).stdout.strip()
        port = process.free_port()
        argv = [str(bindir / "postgres"), "-D", str(data), "-p", str(port), "-k", str(sockets),
                *server_settings("127.0.0.1", self.max_connections)]
        # Its own cgroup (as every start gets one): the database's CPU and memory are sampled apart from the
        # server's although both share the server CPUs.
        self.running = process.launch(process.Launch(argv, self.directory, dict(os.environ), self.cpus, logfile,
                                                     port, user, grace=15,
                                                     stop_signal=signal.SIGINT))  # SIGINT: fast shutdown
        self._sockets = sockets
        self._port = port
        self._wait_ready(logfile)
        self._create("127.0.0.1", port)

    def _admin(self, database: str = "postgres") -> psycopg.Connection:
        return psycopg.connect(host=str(self._sockets), port=self._port, user="postgres", dbname=database,
                               autocommit=True)

    def stop(self) -> None:
        self._close_reader()
        if self.running is not None:
            self.running.stop()
            self.running = None
        if self.keep_log is not None and (self.directory / "postgres.log").exists():
            shutil.copyfile(self.directory / "postgres.log", self.keep_log)
        if self.directory.exists():
            claims.release(self.directory)
            shutil.rmtree(self.directory, ignore_errors=True)
