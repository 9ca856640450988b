"""`shootout conform` against a real stack CI builds anyway (go-nethttp): bounded, and Ctrl-C leaves nothing behind."""

import json
import time
from argparse import Namespace

import pytest

from webshootout.commands import conform as conform_cmd
from webshootout.console import say
from webshootout.stacks import catalog, provision

from integration.helpers import ctrl_c, make_settings, owned_by, shootout_child

pytestmark = pytest.mark.integration
BUDGET = 30.0  # seconds of probing per id (issue 52)


def test_go_nethttp_takes_every_probe_within_the_budget(root, tmp_path, capsys, no_leftovers):
    (variant,) = catalog.select(catalog.discover(root), ("go-nethttp",))
    provision.setup(variant, tmp_path / "setup.log", say, install=False)  # conform builds nothing itself
    code = conform_cmd.run(make_settings(root, ("go-nethttp",), out=tmp_path), Namespace(probe=None, slow=False))
    out = capsys.readouterr().out
    assert code == 0, out
    (stack,) = json.loads((tmp_path / "conform.json").read_text())["stacks"]
    graded = {f["probe"]: f for f in stack["findings"]}
    assert len(graded) == len(conform_cmd.catalog.selected(None, slow=False))
    assert stack["error"] is None and stack["seconds"] < BUDGET
    assert all(f["alive"] for f in graded.values()), "net/http died on a probe"
    for name in ("missing-host", "byte-by-byte", "pipeline-split", "cl-cl-different", "expect-100-continue"):
        assert graded[name]["grade"] == "pass", graded[name]
    assert any(line.startswith("go-nethttp ") and "/38" in line for line in out.splitlines()), out


def test_ctrl_c_in_the_middle_of_a_probe_leaves_nothing_running(root, tmp_path):
    args = ["conform", "--frameworks", "go-nethttp", "--slow", "--probe", "slowloris", "--out", str(tmp_path)]
    with shootout_child(root, *args) as child:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and child.poll() is None and not owned_by(child.pid):
            time.sleep(0.2)
        time.sleep(5)  # the server is up and the trickle under way
        ctrl_c(child)
    time.sleep(0.5)
    left = owned_by(child.pid)
    for proc in left:
        proc.kill()
    assert not left, [p.name() for p in left]
