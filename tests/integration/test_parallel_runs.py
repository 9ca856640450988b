"""Two runs of the same stack at the same time on one machine: ports, generated configs, pid files,
sockets and temp dirs are per run, so both finish with every workload measured and nothing left running."""

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, owned_by  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]

WORKLOADS = ("plaintext", "json", "db", "session", "hash", "static")


def start_run(root: Path, out: Path) -> subprocess.Popen:
    # 1 s trials: what is asserted (every workload measured without a status error, the runs overlapping, nothing
    # left) needs no more, and each run has 6 of them.
    argv = [sys.executable, "-m", "webshootout", "run", "--frameworks", "php",
            "--workloads", ",".join(WORKLOADS), "--duration", "1", "--warmup", "0.5", "--trials", "1",
            "--out", str(out)]
    return subprocess.Popen(argv, cwd=root, env={**os.environ, "PYTHONPATH": str(root / "src")},
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def span(lines: list[dict]) -> tuple[str, str]:
    """First and last time stamp a run recorded (ISO 8601 in UTC, so they sort as strings)."""
    times = sorted(line["time"] for line in lines if "time" in line)
    return times[0], times[-1]


def test_two_php_runs_at_the_same_time(root):
    # Short parents: php-fpm's unix socket lives under the run directory and sun_path holds 108 bytes.
    outs = [Path(tempfile.mkdtemp(prefix="ws-par-", dir="/tmp")) for _ in range(2)]
    for out in outs:
        out.chmod(0o755)  # nginx and php-fpm workers run as www-data and must reach the socket
    children = []
    try:
        children = [start_run(root, out) for out in outs]
        errs = [child.communicate(timeout=300)[1] for child in children]
    finally:
        for child in children:
            if child.poll() is None:
                child.kill()
                child.wait()
    try:
        runs = []
        for child, err, out in zip(children, errs, outs):
            assert child.returncode == 0, err
            (run_dir,) = out.iterdir()
            lines = RunDir(run_dir).lines()
            assert not [line for line in lines if line["kind"] == "fault"], err
            assert all(line["passed"] for line in lines if line["kind"] == "verification"), err
            trials = [line for line in lines if line["kind"] == "trial"]
            assert {line["workload"] for line in trials} == set(WORKLOADS), err
            for line in trials:
                assert line["rps"] > 0 and line["errors"]["status"] == 0, line
            runs.append(lines)
        (start_a, end_a), (start_b, end_b) = span(runs[0]), span(runs[1])
        assert start_a <= end_b and start_b <= end_a, "the two runs did not overlap in time"
        left = [proc for child in children for proc in owned_by(child.pid)]
        for proc in left:
            proc.kill()
        assert not left, [proc.name() for proc in left]
    finally:
        for out in outs:
            shutil.rmtree(out, ignore_errors=True)
