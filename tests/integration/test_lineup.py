"""Every framework the catalog can build passes `check`, so CI proves the lineup keeps working."""

import contextlib
import dataclasses
import os
import tempfile
from pathlib import Path

import psutil
import psycopg
import pytest

from webshootout.stacks import catalog
from webshootout import harness
from webshootout.commands import check
from webshootout.system import cgroup
from webshootout.workloads.probe import Visitor

from .helpers import make_settings, owned_by
from .lineup import LINEUP, ROOT, TRANSPORT_WORKLOADS, shared_transport

pytestmark = pytest.mark.integration


# Relations in the benchmark database's public schema: what a stack's own start may add (Django's django_session,
# Rails' migrations) beside what the harness seeds.
_RELATIONS = ("SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
              "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')")
_DROP = {"r": "TABLE", "p": "TABLE", "v": "VIEW", "m": "MATERIALIZED VIEW", "S": "SEQUENCE"}


class _Sharing:
    """harness, whose environment() is the lineup's one environment: one PostgreSQL, files and secret for every
    check, as `shootout check` of several frameworks has (a cluster per check cost ~2 s to start and stop:
    initdb, seed, shutdown). Each check finds the database as a new cluster holds it: what earlier servers
    created there is dropped, and each server start resets the seeded rows (harness._start). A check that uses
    no database gets none, as harness.environment gives it."""

    def __init__(self, env):
        self.env = env
        self.seeded = self._relations()

    def __getattr__(self, name):
        return getattr(harness, name)

    def _relations(self) -> set[tuple[str, str]]:
        with psycopg.connect(self.env.postgres.connection.url, autocommit=True) as conn:
            return set(conn.execute(_RELATIONS).fetchall())

    @contextlib.contextmanager
    def environment(self, work, logs, cpus, need_database, where=None):
        assert cpus == self.env.cpus and where is None, (cpus, where)
        with psycopg.connect(self.env.postgres.connection.url, autocommit=True) as conn:
            # Tables first: their identity and serial sequences go with them (and cannot go alone).
            for name, kind in sorted(self._relations() - self.seeded, key=lambda found: found[1] == "S"):
                conn.execute(f'DROP {_DROP[kind]} IF EXISTS "{name}" CASCADE')
        yield self.env if need_database else dataclasses.replace(self.env, postgres=None)


@pytest.fixture(scope="module")
def one_environment(tmp_path_factory):
    work = tmp_path_factory.mktemp("lineup")
    with harness.environment(work, work / "logs", make_settings(ROOT, ()).server_cpus, True) as env:
        yield _Sharing(env)


@pytest.fixture
def no_leftovers(one_environment):
    """conftest's no_leftovers, but the module's PostgreSQL runs on through the tests: its processes (backends and
    autovacuum workers come and go) are none of a check's leftovers. Every other process the harness started
    must be gone."""
    database = psutil.Process(one_environment.env.postgres.running.pid).environ()[cgroup.TOKEN_VAR]  # its backends'
    before = {p.pid for p in owned_by(os.getpid())}
    yield

    def ours(proc: psutil.Process) -> bool:
        try:
            return proc.environ().get(cgroup.TOKEN_VAR) != database
        except psutil.Error:  # ended meanwhile
            return False

    left = [p for p in owned_by(os.getpid()) if p.pid not in before and ours(p)]
    for proc in left:
        with contextlib.suppress(psutil.Error):
            proc.kill()
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"


@pytest.mark.parametrize("name", list(LINEUP))  # lineup.py: slow builds last
def test_every_available_framework_passes_check(root, capsys, no_leftovers, one_environment, name):
    code = check.run(make_settings(root, LINEUP[name]), stack=one_environment, transports=shared_transport,
                     transport_workloads=TRANSPORT_WORKLOADS)
    out = capsys.readouterr().out
    failed = [line for line in out.splitlines() if "FAILED" in line or line.startswith("  |")]
    assert code == 0, "\n".join(failed)


def test_the_lineup_checks_a_variants_transports_where_its_table_differs_from_its_base(root):
    by_id = {v.id: v for v in catalog.discover(root)}
    assert shared_transport(by_id["express-cluster"]) == "its [transport] table is express's, checked with express"
    assert shared_transport(by_id["express"]) is None
    assert shared_transport(by_id["starlette-granian"]) is None  # Granian's own TLS, h2 and h2c


def test_express_cluster_keeps_a_visitor_across_reconnects(root, no_leftovers):
    (variant,) = catalog.select(catalog.discover(root), ("express-cluster",))
    cpus = tuple(sorted(os.sched_getaffinity(0)))  # every CPU: WORKERS > 1 so reconnects can change worker
    with tempfile.TemporaryDirectory() as tmp, \
            harness.environment(Path(tmp), Path(tmp) / "logs", cpus, need_database=True) as env:
        leaks: list = []
        with harness.serving(variant, env, install=True, on_stop_fault=leaks.append) as served:
            visitor = Visitor(served.server.host, served.server.port)
            for n in range(1, 13):
                visitor.close()  # a new TCP connection each time; the kernel spreads them over workers
                assert visitor.get("/session").text == f"Count is {n}"
            other = Visitor(served.server.host, served.server.port)
            assert other.get("/session").text == "Count is 1"
            other.close()
            visitor.close()
        assert not leaks, leaks
