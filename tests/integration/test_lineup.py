"""Every framework the catalog can build passes `check`, so CI proves the lineup keeps working."""

import os
import tempfile
from pathlib import Path

import pytest

from webshootout.stacks import catalog
from webshootout import harness
from webshootout.commands import check
from webshootout.workloads.probe import Visitor

from .helpers import make_settings, no_leftovers, one_environment  # noqa: F401 - fixtures
from .lineup import LINEUP, TRANSPORT_WORKLOADS, shared_transport

pytestmark = pytest.mark.integration


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
