"""Ctrl-C in the middle of a run keeps every finished trial and leaves no server or database running."""

import time

import pytest

from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, ctrl_c, owned_by, shootout_child  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]


def test_ctrl_c_keeps_finished_trials_and_cleans_up(root, tmp_path):
    args = ["run", "--frameworks", "flask", "--workloads", "plaintext,json", "--duration", "2", "--warmup", "0",
            "--trials", "3", "--out", str(tmp_path)]
    with shootout_child(root, *args) as child:
        deadline = time.monotonic() + 120
        results = None
        while time.monotonic() < deadline and child.poll() is None:
            found = list(tmp_path.glob("*/results.jsonl"))
            if found and '"kind": "trial"' in found[0].read_text():
                results = found[0]
                break
            time.sleep(0.2)
        assert results is not None, "no trial was recorded in time"
        err = ctrl_c(child)
    assert "--resume" in err
    trials = [line for line in RunDir(results.parent).lines() if line["kind"] == "trial"]
    assert 1 <= len(trials) < 6
    time.sleep(0.5)
    left = owned_by(child.pid)
    for proc in left:
        proc.kill()
    assert not left, [p.name() for p in left]
