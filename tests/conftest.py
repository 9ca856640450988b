import os
from pathlib import Path

import psutil
import pytest

from webshootout.config.settings import default_split
from webshootout.services.postgres import Postgres
from webshootout.system.process import OWNER_VAR

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = Path(__file__).resolve().parent / "fixtures"


@pytest.fixture
def root() -> Path:
    return ROOT


@pytest.fixture
def fixture_root() -> Path:
    return FIXTURES


@pytest.fixture(scope="module")
def postgres(tmp_path_factory):
    """A real PostgreSQL, seeded as a run seeds it, shared by a module's tests (each resets what it needs)."""
    with Postgres(tmp_path_factory.mktemp("pg") / "pg", default_split()[0], log=lambda m: None) as pg:
        yield pg


def tagged_processes() -> list[psutil.Process]:
    """Processes this test process's harness started (they name it as their owner) still alive."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(OWNER_VAR) == str(os.getpid()):
                found.append(proc)
        except psutil.Error:
            continue
    return found


@pytest.fixture
def no_leftovers():
    """Fails the test if it leaves a harness-started process behind, and kills any such process."""
    before = {p.pid for p in tagged_processes()}
    yield
    left = [p for p in tagged_processes() if p.pid not in before]
    for proc in left:
        try:
            proc.kill()
        except psutil.Error:
            pass
    assert not left, f"processes left behind: {[(p.pid, p.name()) for p in left]}"


_BUILDING = []  # the lineup's builder (integration/lineup.py), while this session runs


def pytest_collection_finish(session):
    """Starts the lineup's builder with the session when lineup checks are selected, so the slow builds run
    beside every test before them rather than only beside the lineup's own checks."""
    names = [item.callspec.params["name"] for item in session.items
             if item.originalname == "test_every_available_framework_passes_check"]
    if names and not session.config.option.collectonly:
        from integration.lineup import Building
        _BUILDING.append(Building(names))


def pytest_sessionfinish(session):
    while _BUILDING:
        _BUILDING.pop().stop()


def _lineup_checks(reporter) -> dict[str, float]:
    """Wall seconds of each stack's lineup check (tests/integration/test_lineup.py), by framework folder."""
    walls: dict[str, float] = {}
    for reports in reporter.stats.values():
        for report in reports:
            nodeid = getattr(report, "nodeid", "")
            if getattr(report, "when", None) == "call" and "test_every_available_framework_passes_check[" in nodeid:
                walls[nodeid.rpartition("[")[2].rstrip("]")] = report.duration
    return walls


def pytest_terminal_summary(terminalreporter):
    """Where the test run's time went per stack: Debian packages, build and check (issue 29's budget)."""
    from webshootout.stacks import catalog, provision

    checks = _lineup_checks(terminalreporter)
    if not checks:
        return
    names = {v.id: v.name for v in catalog.discover(ROOT)}
    spent: dict[str, list[float]] = {}
    for entry in provision.LEDGER:
        row = spent.setdefault(names.get(entry.variant, entry.variant), [0.0, 0.0, 0.0])
        row[0] += entry.install
        row[1] += entry.build
    for name, wall in checks.items():
        spent.setdefault(name, [0.0, 0.0, 0.0])[2] = wall
    write = terminalreporter.write_line
    write("")
    write("time per stack (s): install and build wherever they ran (the lineup builds ahead of its checks),")
    write("check = the lineup test's wall time, which includes any build it waited for")
    write(f"{'stack':<22}{'install':>9}{'build':>9}{'check':>9}")
    for name, (install, build, check) in sorted(spent.items(), key=lambda kv: -sum(kv[1])):
        write(f"{name:<22}{install:>9.1f}{build:>9.1f}{check:>9.1f}")
    totals = [sum(row[i] for row in spent.values()) for i in range(3)]
    write(f"{'total':<22}{totals[0]:>9.1f}{totals[1]:>9.1f}{totals[2]:>9.1f}")
