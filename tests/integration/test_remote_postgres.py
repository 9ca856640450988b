import base64
import hashlib
import hmac
import time

import pytest

from webshootout.hosts.remote import REMOTE_OWNER_VAR, Remote, owner_tag
from webshootout.system.sampler import Sampler
from webshootout.services.postgres import PostgresError
from webshootout.services.remote_postgres import RemotePostgres, hba_conf, scram_verifier

from .labhosts import lab_hosts

# What remains on a host of the processes given: $0 this harness's owner tag variable, $1 the tag, then pids.
# Tagged processes are found through their environment: PostgreSQL's backends overwrite theirs with their
# process titles, so they are looked for by pid as well.
_LEFT = r"""
tag="$0=$1"; shift
grep -lsxzF "$tag" /proc/[0-9]*/environ
for pid; do [ -e "/proc/$pid" ] && echo "/proc/$pid"; done
true
"""


def test_hba_lets_the_benchmark_role_in_from_the_clients_and_the_superuser_from_the_harness_only():
    assert hba_conf(("10.0.0.2", "app.example"), "10.0.0.1").splitlines()[1:] == [
        "host bench bench 10.0.0.2/32 scram-sha-256",
        "host bench bench app.example scram-sha-256",
        "host all postgres 10.0.0.1/32 scram-sha-256"]
    assert "fd00::2/128" in hba_conf(("fd00::2",), "fd00::1")


def test_an_address_pg_hba_cannot_hold_is_refused():
    with pytest.raises(PostgresError, match="'10.0.0.2 all' is not an IP address"):
        hba_conf(("10.0.0.2 all",), "10.0.0.1")


def test_the_verifier_checks_the_rfc_7677_exchange():
    # RFC 7677 section 3: password "pencil"; the server checks the client's proof against StoredKey.
    salt = base64.b64decode("W22ZaJ0SNY7soEsUEjb6gQ==")
    verifier = scram_verifier("pencil", salt)
    head, keys = verifier.split("$")[1:]
    assert head == "4096:W22ZaJ0SNY7soEsUEjb6gQ=="
    stored, server = (base64.b64decode(k) for k in keys.split(":"))
    nonce = "rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0"
    auth = f"n=user,r=rOprNGfwEbeRWgbNEkqO,r={nonce},s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096,c=biws,r={nonce}".encode()
    proof = base64.b64decode("dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=")
    client_key = bytes(a ^ b for a, b in zip(proof, hmac.digest(stored, auth, "sha256")))
    assert hashlib.sha256(client_key).digest() == stored
    assert base64.b64encode(hmac.digest(server, auth, "sha256")).decode() == \
        "6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4="


def _psql(remote: Remote, url: str, sql: str):
    return remote.run(["psql", url, "-tAc", sql], timeout=30, check=False)


def _leftovers(db: Remote, folder: str, pids: set[int]) -> tuple[set[str], bool]:
    """The live processes among `pids` and those carrying our tag there, and whether `folder` exists."""
    # Without the tag itself: every command run there carries it, this one too.
    found = db.run(["env", "-u", REMOTE_OWNER_VAR, "sh", "-c", _LEFT, REMOTE_OWNER_VAR, owner_tag(), *map(str, pids)],
                   timeout=30).stdout
    return set(found.split()), db.run(["test", "-e", folder], check=False).returncode == 0


@pytest.mark.integration
@pytest.mark.timeout(300)
def test_on_the_database_host_open_to_the_app_host_only_and_gone_after(tmp_path):
    kept = tmp_path / "postgres.log"
    said = []
    with lab_hosts() as hosts, Remote(hosts["database"]) as db, Remote(hosts["app"]) as app, \
            Remote(hosts["load"]) as load:
        database = hosts["database"]
        with RemotePostgres(db, database.address, database.cpus, clients=(hosts["app"].address,),
                            log=said.append, keep_log=kept) as pg:
            assert pg.connection.host == database.address and pg.version.startswith("postgres (PostgreSQL)")
            url = pg.connection.url
            pg.reset()
            with Sampler(pg.running.group, interval=0.2) as sampled:
                answer = _psql(app, url, "SELECT count(*) FROM world")
                assert answer.returncode == 0 and answer.stdout.strip() == "10000", answer.stderr
                time.sleep(0.5)
            usage = sampled.usage
            assert usage.samples >= 3 and 5 < usage.rss_mean_mb < 1000 and 0 <= usage.cpu_percent < 250, usage
            assert "process group and its descendants" in usage.memory_method
            assert pg.calls_touching("world") == 1
            refused = _psql(load, url, "SELECT 1")
            assert refused.returncode != 0 and f'no pg_hba.conf entry for host "{hosts["load"].address}"' \
                in refused.stderr, refused.stderr
            pg.reset()
            assert pg.calls_touching("world") == 0
            pids = pg.running.group.pids()
            assert pg.running.alive() and len(pids) >= 5  # the postmaster and its background processes
            folder = pg._folder
            live, exists = _leftovers(db, folder, pids)
            assert f"/proc/{pg.running.process.pgid}" in live and exists
        assert _leftovers(db, folder, pids) == (set(), False)
    log = kept.read_text()
    assert f"connection received: host={hosts['app'].address}" in log
    assert "database system is shut down" in log and not said, said


@pytest.mark.integration
@pytest.mark.timeout(300)
def test_removed_when_the_body_fails(tmp_path):
    with lab_hosts() as hosts, Remote(hosts["database"]) as db:
        database = hosts["database"]
        with pytest.raises(RuntimeError, match="boom"):
            with RemotePostgres(db, database.address, database.cpus, clients=(hosts["app"].address,),
                                log=print, keep_log=None) as pg:
                folder, pids = pg._folder, pg.running.group.pids()
                raise RuntimeError("boom")
        assert _leftovers(db, folder, pids) == (set(), False)
