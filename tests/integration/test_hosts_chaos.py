"""A multi-host run killed with SIGKILL in the middle of a trial: the next start with the same hosts removes
everything it left on every host."""

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from webshootout.hosts.remote import REMOTE_OWNER_VAR, REMOTE_ROOT, owner_tag

from .labhosts import lab_hosts

pytestmark = [pytest.mark.integration, pytest.mark.timeout(600)]
ROOT = Path(__file__).resolve().parents[2]
ENV = dict(os.environ, PYTHONPATH=str(ROOT / "src"))


def _tagged(tag: str) -> list[str]:
    """Processes carrying the owner tag: the lab's hosts share this machine's pid space, so all are seen."""
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(REMOTE_OWNER_VAR) == tag and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(f"{proc.pid} {proc.name()}")
        except psutil.Error:
            continue
    return found


def _loading(tagged: list[str]) -> bool:
    return any(entry.endswith(" shootout-load") for entry in tagged)


def _wait_for_trial(proc: subprocess.Popen, seconds: float) -> str:
    seen, deadline = [], time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        seen.append(line)
        if "trial 1/" in line:
            return "".join(seen)
    proc.kill()
    pytest.fail("no trial started:\n" + "".join(seen)[-3000:])


def test_the_next_start_removes_what_a_killed_multi_host_run_left(tmp_path):
    with lab_hosts() as placed:
        source = str(placed.source)
        run = subprocess.Popen([sys.executable, "-m", "webshootout", "run", "--hosts", source,
                                "--frameworks", "go-nethttp", "--workloads", "db", "--duration", "30", "--trials", "1",
                                "--warmup", "0", "--out", str(tmp_path)], cwd=ROOT, env=ENV,
                               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        tag = owner_tag(run.pid)
        said = ""
        try:
            said = _wait_for_trial(run, 400)
            # The trial's line comes before the load starts: the harness may first wait up to 20 s for the
            # server and load CPUs to share a cache again. Kill once the load runs on the load host (by name:
            # the harness's short remote commands, a database reset among them, carry the tag too).
            deadline = time.monotonic() + 60
            while not _loading(_tagged(tag)) and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            run.send_signal(signal.SIGKILL)
            run.wait()
            said += run.stdout.read()
            run.stdout.close()
        left = _tagged(tag)
        # The server, PostgreSQL and the load: nothing stopped them.
        assert len(left) >= 3 and _loading(left), f"{left}\n{said[-3000:]}"
        assert (Path(REMOTE_ROOT) / tag).exists()

        check = subprocess.run([sys.executable, "-m", "webshootout", "check", "--hosts", source,
                                "--frameworks", "go-nethttp", "--workloads", "plaintext"],
                               cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
        assert check.returncode == 0, check.stdout[-2000:] + check.stderr[-2000:]
        deadline = time.monotonic() + 10
        while _tagged(tag) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert _tagged(tag) == []
        assert not (Path(REMOTE_ROOT) / tag).exists()
        assert tag in check.stderr  # the sweep said what it removed
