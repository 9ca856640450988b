"""Ctrl-C in the middle of a run keeps every finished trial and leaves no server or database running."""

import os
import signal
import subprocess
import sys
import time

import pytest

from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, owned_by  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]


def test_ctrl_c_keeps_finished_trials_and_cleans_up(root, tmp_path):
    argv = [sys.executable, "-m", "webshootout", "run", "--frameworks", "flask", "--workloads", "plaintext,json",
            "--duration", "2", "--warmup", "0", "--trials", "3", "--out", str(tmp_path)]
    child = subprocess.Popen(argv, cwd=root, env={**os.environ, "PYTHONPATH": str(root / "src")},
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        results = None
        while time.monotonic() < deadline and child.poll() is None:
            found = list(tmp_path.glob("*/results.jsonl"))
            if found and '"kind": "trial"' in found[0].read_text():
                results = found[0]
                break
            time.sleep(0.2)
        assert results is not None, "no trial was recorded in time"
        child.send_signal(signal.SIGINT)
        _, err = child.communicate(timeout=60)
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()
    assert child.returncode == 130, err
    assert "--resume" in err
    trials = [line for line in RunDir(results.parent).lines() if line["kind"] == "trial"]
    assert 1 <= len(trials) < 6
    time.sleep(0.5)
    left = owned_by(child.pid)
    for proc in left:
        proc.kill()
    assert not left, [p.name() for p in left]
