"""For integration tests: settings with short trials and the default CPU split; finding leftovers; a stand-in
for the CPU link's probe; one environment for a module's checks."""

import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

import psutil
import psycopg
import pytest

from webshootout import harness
from webshootout.system import cgroup

from webshootout.load import native
from webshootout.system.process import OWNER_VAR
from webshootout.config.profiles import Profile
from webshootout.config.settings import Settings, default_split
from webshootout.config.suites import Part


def make_settings(root: Path, frameworks: tuple[str, ...], out: Path | None = None, **kw) -> Settings:
    """Short trials at 16 connections; `parts` (or `profile`) replace the one part of the selection."""
    server_cpus, load_cpus = default_split()
    values = dict(duration=2.0, warmup=0.5, trials=1, server_cpus=server_cpus, load_cpus=load_cpus, out=out,
                  workloads=None)
    profile = kw.pop("profile", Profile(connections=(16,)))
    values.update(kw)
    values.setdefault("parts", (Part("adhoc", frameworks, values["workloads"], profile),))
    return Settings(root=root, suite=None, frameworks=frameworks, **values)


@contextmanager
def shootout_child(root: Path, *args: str) -> Iterator[subprocess.Popen]:
    """`python -m webshootout ARGS` from the source tree, its output captured; killed if the test leaves it running."""
    child = subprocess.Popen([sys.executable, "-m", "webshootout", *args], cwd=root,
                             env={**os.environ, "PYTHONPATH": str(root / "src")},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        yield child
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def ctrl_c(child: subprocess.Popen) -> str:
    """Ctrl-C to a shootout child, which must end with 130 within a minute; its stderr."""
    child.send_signal(signal.SIGINT)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 130, err
    return err


def owned_by(pid: int) -> list[psutil.Process]:
    """Live processes started by the harness running as process `pid` (a `shootout` child of a test)."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(OWNER_VAR) == str(pid):
                found.append(proc)
        except psutil.Error:
            continue
    return found


# A round trip well below cpulink.SURELY_NEAR_NS: the stand-in's answer, the same every time.
NEAR_NS = 100.0


def cpus_near(folder: Path) -> dict[str, str]:
    """The environment for a harness whose trials must not wait for the server and load CPUs to share a cache:
    shootout-load and shootout-speed as built, found in `folder` through SHOOTOUT_LOAD beside a stand-in
    shootout-cpulink that answers a near round trip at once. The real probe waits up to 10 s at each run's
    start and up to 20 s before a trial whenever the host runs the two vCPUs apart (for tens of seconds at a
    time, more often beside builds), which is no part of what the tests using this prove; the probe itself
    and its waits are tested in tests/system/test_cpulink.py and test_lifecycle.py."""
    built = native.binary()
    folder.mkdir(parents=True, exist_ok=True)
    for name in ("shootout-load", "shootout-speed"):
        (folder / name).symlink_to(built.with_name(name).resolve())
    probe = folder / "shootout-cpulink"
    probe.write_text(f"#!/bin/sh\necho '{{\"round_trip_ns\": {NEAR_NS}}}'\n")
    probe.chmod(0o755)
    return {native.BINARY_ENV: str(folder / "shootout-load")}


@pytest.fixture
def cpus_kept_near(tmp_path_factory, monkeypatch):
    """cpus_near for this test process and the harnesses it starts with its environment. test_run.py and
    test_lifecycle.py keep the real probe, so a run that probes the real link stays tested end to end."""
    for name, value in cpus_near(tmp_path_factory.mktemp("bin") / "bin").items():
        monkeypatch.setenv(name, value)


# Relations in the benchmark database's public schema: what a stack's own start may add (Django's django_session,
# Rails' migrations) beside what the harness seeds.
_RELATIONS = ("SELECT c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace "
              "WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v', 'm', 'S')")
_DROP = {"r": "TABLE", "p": "TABLE", "v": "VIEW", "m": "MATERIALIZED VIEW", "S": "SEQUENCE"}


class _Sharing:
    """harness (check.run's `stack`), whose environment() is a test module's one environment: one PostgreSQL, files
    and secret for every check, as `shootout check` of several frameworks has (a cluster per check cost ~2 s to
    start and stop: initdb, seed, shutdown). Each check finds the database as a new cluster holds it: what
    earlier servers created there is dropped, and each server start resets the seeded rows (harness._start). A
    check that uses no database gets none, as harness.environment gives it."""

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
    work = tmp_path_factory.mktemp("checks")
    with harness.environment(work, work / "logs", default_split()[0], True) as env:
        yield _Sharing(env)


@pytest.fixture
def no_leftovers(one_environment):
    """conftest's no_leftovers beside one_environment, whose PostgreSQL runs on through the module's tests: its
    processes (backends and autovacuum workers come and go) are none of a test's leftovers. Every other process
    the harness started must be gone."""
    database = psutil.Process(one_environment.env.postgres.running.pid).environ()[cgroup.TOKEN_VAR]
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
