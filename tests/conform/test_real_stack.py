"""`shootout conform` against real stacks CI's lineup builds anyway, one per runtime (Go, Node, Python, Java,
Rust): each bounded, the HTTP/2 probes and h2spec on the one that takes h2c (go-nethttp), the HTTP/1.1 ones
on the others; and Ctrl-C leaves nothing behind."""

import json
import time
from argparse import Namespace

import pytest

from webshootout.commands import conform as conform_cmd
from webshootout.conform.probe import HTTP2
from webshootout.console import say
from webshootout.stacks import catalog, provision

from integration.helpers import ctrl_c, make_settings, owned_by, shootout_child

pytestmark = pytest.mark.integration
H1 = ("framing", "limits", "fragmentation", "semantics")
# id -> (the families probed, seconds of probing allowed): about 5 s each here, 15 s with h2spec's cases.
STACKS = {"go-nethttp": (None, 30.0), "express": (H1, 12.0), "flask": (H1, 12.0), "jetty": (H1, 12.0),
          "actix": (H1, 12.0)}
# Passed by every one of them (measured): a request split byte by byte, a pipeline split across writes,
# two different Content-Lengths.
EVERYWHERE = ("byte-by-byte", "pipeline-split", "cl-cl-different")


def _conform(root, tmp_path, capsys, vid: str, families):
    (variant,) = catalog.select(catalog.discover(root), (vid,))
    provision.setup(variant, tmp_path / "setup.log", say, install=False)  # conform builds nothing itself
    args = Namespace(probe=None, slow=False, families=",".join(families) if families else None)
    code = conform_cmd.run(make_settings(root, (vid,), out=tmp_path), args)
    out = capsys.readouterr().out
    assert code == 0, out
    (stack,) = json.loads((tmp_path / "conform.json").read_text())["stacks"]
    return stack, out


@pytest.mark.parametrize("vid", list(STACKS))
def test_a_real_stack_takes_the_probes_within_its_budget(root, tmp_path, capsys, no_leftovers, vid):
    families, budget = STACKS[vid]
    stack, out = _conform(root, tmp_path, capsys, vid, families)
    graded = {f["probe"]: f for f in stack["findings"]}
    h1 = [p for p in conform_cmd.catalog.selected(None, slow=False) if p.family not in HTTP2]
    assert {p.name for p in h1} <= set(graded)
    assert stack["error"] is None and stack["seconds"] < budget, stack["seconds"]
    assert all(f["alive"] for f in graded.values()), [f for f in graded.values() if not f["alive"]]
    for name in EVERYWHERE:
        assert graded[name]["grade"] == "pass", graded[name]
    assert any(line.startswith(f"{vid} ") and "/38" in line for line in out.splitlines()), out
    if families is None:  # go-nethttp: h2c, so our h2 probes and h2spec's cases too
        assert stack["http2"] == "h2c"
        h2 = {n: f for n, f in graded.items() if f["family"] == "h2"}
        assert len(h2) == 16 and h2["h2-split-tiny-frames"]["grade"] == "pass"
        assert all(h2[n]["grade"] == "pass" for n in ("h2-settings-enable-push-2", "h2-window-update-zero",
                                                       "h2-missing-path", "h2-continuation-flood", "h2-rapid-reset"))


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
