"""`check` and `run` with --hosts in the lab: flask and go-nethttp on the app namespace, PostgreSQL on the
database namespace, shootout-load on the load namespace; the traffic is proven to cross the lab's links and
nothing is left behind on any of them."""

import json
import os
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from webshootout.hosts import lab
from webshootout.system.process import OWNER_VAR
from webshootout.hosts.remote import REMOTE_OWNER_VAR, REMOTE_ROOT, owner_tag

from .labhosts import lab_hosts

pytestmark = [pytest.mark.integration, pytest.mark.timeout(900)]
ROOT = Path(__file__).resolve().parents[2]
FRAMEWORKS = "flask,go-nethttp"


def _bytes(role: str) -> dict[str, int]:
    """The root namespace's end of a role's veth: rx is what the role sent, tx what it received."""
    stats = Path(f"/sys/class/net/{lab.Layout.veth(role)}/statistics")
    return {name: int((stats / f"{name}_bytes").read_text()) for name in ("rx", "tx")}


def _shootout(*args: str) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "webshootout", *args], cwd=ROOT,
                            env=dict(os.environ, PYTHONPATH=str(ROOT / "src")), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)


def _finish(proc: subprocess.Popen, timeout: float) -> str:
    try:
        out, _ = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.terminate()  # the harness cleans up on SIGTERM, on every host
        out, _ = proc.communicate(timeout=120)
        pytest.fail(f"shootout did not finish within {timeout}s:\n{out[-3000:]}")
    return out


def _left_by(pid: int) -> list[str]:
    """Processes of the harness that ran as `pid`, here or (sharing the pid space) in any lab namespace."""
    found = []
    for proc in psutil.process_iter():
        try:
            environ = proc.environ()
        except psutil.Error:
            continue
        if environ.get(OWNER_VAR) == str(pid) or environ.get(REMOTE_OWNER_VAR) == owner_tag(pid):
            found.append(f"{proc.pid} {proc.name()}")
    return found


def _run_both(source: Path, out: Path) -> tuple[subprocess.Popen, str, subprocess.Popen, str]:
    # check --hosts on one stack and workload; run verifies every workload of both before its load.
    # 1 s trials: what crosses the links (the answers, the app's queries) is asserted as bytes, not as a rate.
    check = _shootout("check", "--hosts", str(source), "--frameworks", "go-nethttp", "--workloads", "db")
    check_out = _finish(check, 600)
    assert check.returncode == 0, check_out[-3000:]
    run = _shootout("run", "--hosts", str(source), "--frameworks", FRAMEWORKS, "--workloads", "plaintext,db,session",
                    "--duration", "1", "--trials", "1", "--warmup", "0.5", "--connections", "16", "--out", str(out))
    run_out = _finish(run, 600)
    assert run.returncode == 0, run_out[-3000:]
    return check, check_out, run, run_out


def test_check_and_run_with_the_roles_on_three_lab_hosts(tmp_path):
    with lab_hosts() as placed:
        before = {role: _bytes(role) for role in ("app", "database", "load")}
        check, check_out, run, run_out = _run_both(placed.source, tmp_path)
        after = {role: _bytes(role) for role in ("app", "database", "load")}
        left = _left_by(check.pid) + _left_by(run.pid)
        folders = [p for p in (Path(REMOTE_ROOT) / owner_tag(check.pid), Path(REMOTE_ROOT) / owner_tag(run.pid))
                   if p.exists()]

    assert "go-nethttp db: ok" in check_out, check_out[-3000:]
    (rundir,) = tmp_path.iterdir()
    lines = [json.loads(line) for line in (rundir / "results.jsonl").read_text().splitlines()]
    trials = [line for line in lines if line["kind"] == "trial"]
    assert not [line for line in lines if line["kind"] == "fault"], run_out[-3000:]
    assert {(t["framework"], t["workload"]) for t in trials} == {
        (f, w) for f in FRAMEWORKS.split(",") for w in ("plaintext", "db", "session")}
    assert all(t["requests"] > 0 and not sum(t["errors"].values()) for t in trials), trials
    assert all(t["server_cpu_percent"] > 0 for t in trials)  # sampled on the app host

    # The answers left the app namespace and reached the load namespace over their veth links.
    answered = sum(t["bytes_read"] for t in trials)
    assert after["app"]["rx"] - before["app"]["rx"] >= answered
    assert after["load"]["tx"] - before["load"]["tx"] >= answered
    # The app reached PostgreSQL on the database namespace, not on its own loopback.
    assert after["database"]["rx"] - before["database"]["rx"] > 100_000
    app_address = placed["app"].address
    assert f"host={app_address}" in (rundir / "logs" / "postgres.log").read_text()

    meta = json.loads((rundir / "meta.json").read_text())
    roles = meta["topology"]["roles"]
    assert {role: roles[role]["address"] for role in roles} == {h.role: h.address for h in placed.hosts}
    assert {(link["client"], link["server"]) for link in meta["topology"]["links"]} == {
        ("load", "app"), ("app", "database")}
    assert all(link["rtt_median_us"] > 0 and link["throughput_mbit_s"] > 0 for link in meta["topology"]["links"])
    assert "Hosts" in (rundir / "report.md").read_text()

    assert left == [] and folders == []
