"""Every framework the catalog can build passes `check`, so CI proves the lineup keeps working."""

import os
import tempfile
import threading
from pathlib import Path

import pytest

from webshootout.stacks import catalog, provision
from webshootout import harness
from webshootout.commands import check
from webshootout.workloads.probe import Visitor

from .helpers import make_settings

pytestmark = pytest.mark.integration


ROOT = Path(__file__).resolve().parents[2]


def _lineup() -> dict[str, tuple[str, ...]]:
    """Available ids per framework folder: one test each, so a slow build or a failure stays its own."""
    folders: dict[str, tuple[str, ...]] = {}
    for variant in catalog.discover(ROOT):
        if not variant.unavailable:
            folders[variant.name] = (*folders.get(variant.name, ()), variant.id)
    return folders


LINEUP = _lineup()


class Builder(threading.Thread):
    """Sets up the selected stacks ahead of their checks, in test order and at the lowest CPU priority, so a
    stack's build runs while the one before it is checked (a check leaves a CPU mostly idle) without slowing it. provision's folder lock makes the check wait for
    a build under way, or build the stack itself when the builder has not reached it; a build that fails here
    is simply redone by the check, which reports it."""

    def __init__(self, root: Path, names: list[str], logs: Path):
        super().__init__(name="lineup-builder", daemon=True)
        self.variants = [v for v in catalog.discover(root) if v.name in names and not v.unavailable]
        self.variants.sort(key=lambda v: names.index(v.name))
        self.logs = logs
        self.stopping = threading.Event()

    def run(self) -> None:
        for variant in self.variants:
            if self.stopping.is_set():
                return
            try:
                provision.setup(variant, self.logs / f"{variant.id}.log", lambda message: None, background=True)
            except Exception:  # noqa: BLE001 - the check of this stack runs the setup again and reports it
                continue


@pytest.fixture(scope="module", autouse=True)
def builder(request):
    selected = [item.callspec.params["name"] for item in request.session.items
                if item.originalname == "test_every_available_framework_passes_check"]
    with tempfile.TemporaryDirectory(prefix="shootout-lineup-builds-") as logs:
        thread = Builder(ROOT, selected, Path(logs))
        thread.start()
        try:
            yield thread
        finally:
            thread.stopping.set()
            thread.join()  # the build under way ends by itself; none is left running


@pytest.mark.parametrize("name", sorted(LINEUP))
def test_every_available_framework_passes_check(root, capsys, no_leftovers, name):
    code = check.run(make_settings(root, LINEUP[name]))
    out = capsys.readouterr().out
    failed = [line for line in out.splitlines() if "FAILED" in line or line.startswith("  |")]
    assert code == 0, "\n".join(failed)


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
