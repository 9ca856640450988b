"""The lab for real: three namespaces with their own sshd, reached over SSH, measured, removed entirely."""

import os
import shutil
import socket
import subprocess
import sys
from pathlib import Path

import psutil
import pytest

from webshootout.config import hostsfile as hosts
from webshootout.hosts import lab, netprobe
from webshootout.config.hostsfile import ROLES
from webshootout.hosts.remote import Remote

pytestmark = [pytest.mark.integration, pytest.mark.timeout(300)]
SRC = Path(__file__).resolve().parents[2] / "src"
ADDRESSES = [lab.Layout().address(role) for role in ROLES]


def _lab_processes() -> list[psutil.Process]:
    """Live (not zombie) sshd started with a lab configuration, or ssh client talking to the lab."""
    found = []
    for proc in psutil.process_iter():
        try:
            cmdline = " ".join(proc.cmdline())
            ours = str(lab.STATE_DIR) in cmdline or any(f"root@{address}" in cmdline for address in ADDRESSES)
            if ours and proc.status() != psutil.STATUS_ZOMBIE:
                found.append(proc)
        except psutil.Error:
            continue
    return found


def _leftovers() -> list[str]:
    left = sorted(set(lab.NAMESPACES.values()) & lab.namespaces())
    left += [name for name in (lab.BRIDGE, *map(lab.Layout.veth, ROLES)) if lab.link_exists(name)]
    left += [f"{p.name()} {p.pid}" for p in _lab_processes()]
    return left + ([str(lab.STATE_DIR)] if lab.STATE_DIR.exists() else [])


def _skip_unless_the_lab_can_run() -> None:
    if os.geteuid() != 0 or shutil.which("ip") is None:
        pytest.skip("the lab needs root and iproute2")
    if lab.STATE_DIR.exists():
        pytest.skip(f"a lab is already up ({lab.STATE_DIR}); this test would take it down")


@pytest.fixture
def lab_hosts():
    _skip_unless_the_lab_can_run()
    try:
        yield hosts.load(lab.up(lambda message: None))
    finally:
        lab.down(lambda message: None)


def _status() -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "webshootout", "lab", "status"], capture_output=True,
                          text=True, env=dict(os.environ, PYTHONPATH=str(SRC)), timeout=60)


def _counter(link: str, name: str) -> int:
    return int(Path(f"/sys/class/net/{link}/statistics/{name}").read_text())


def _check_hosts(remotes: dict[str, Remote], lab_hosts: hosts.Hosts) -> None:
    for role, remote in remotes.items():
        assert remote.run(["hostname"]).stdout.strip() == socket.gethostname()  # namespaces share the rest
        addresses = [line.split()[3] for line in remote.run(["ip", "-o", "-4", "addr"]).stdout.splitlines()]
        assert sorted(addresses) == sorted(["127.0.0.1/8", f"{lab_hosts[role].address}/24"])
        routes = remote.run(["ip", "-4", "route"]).stdout
        assert "default" not in routes and lab.SUBNET in routes  # nowhere to go but the lab's /24


def _check_process_group(remote: Remote, tmp_path: Path) -> None:
    running = remote.start(["bash", "-c", "echo up; sleep 300 & sleep 301 & wait"],
                           log=tmp_path / "group.log", cpus=remote.host.cpus)
    group = remote.run(["ps", "-o", "pid=", "-g", str(running.pgid)]).stdout.split()
    assert len(group) >= 2 and str(running.pgid) in group
    in_namespace = subprocess.run(["ip", "netns", "pids", lab.NAMESPACES["app"]], capture_output=True,
                                  text=True).stdout.split()
    assert set(group) <= set(in_namespace)
    assert running.stop(grace=5) is None and not running.alive()
    assert not remote.run(["ps", "-o", "pid=", "-g", str(running.pgid)], check=False).stdout.split()
    assert "up" in (tmp_path / "group.log").read_text()


def _check_copy(remote: Remote, tmp_path: Path) -> None:
    source = tmp_path / "source"
    (source / "sub").mkdir(parents=True)
    (source / "sub" / "file with spaces").write_bytes(os.urandom(100_000))
    target = tmp_path / "copied"
    remote.copy_folder(source, str(target))
    assert remote.read_file(str(target / "sub" / "file with spaces")) == \
        (source / "sub" / "file with spaces").read_bytes()


def _check_links(remotes: dict[str, Remote], tmp_path: Path) -> None:
    app_veth = lab.Layout.veth("app")
    before = _counter(app_veth, "tx_bytes")  # the bridge's side: what it sent into the app namespace
    to_app = netprobe.measure(remotes["app"], remotes["load"], tmp_path / "probe-app.log")
    assert _counter(app_veth, "tx_bytes") - before >= to_app.bulk_bytes
    to_database = netprobe.measure(remotes["database"], remotes["app"], tmp_path / "probe-db.log")
    for link in (to_app, to_database):
        assert 0 < link.rtt_min_us <= link.rtt_median_us <= link.rtt_p90_us and link.rounds == netprobe.ROUNDS
        assert link.throughput_mbit_s > 0 and link.bulk_bytes > 0 and link.bulk_seconds >= 1.0
    assert (to_app.server, to_app.client, to_database.server, to_database.client) == \
        ("app", "load", "database", "app")
    assert set(to_app.as_meta()) >= {"rtt_median_us", "throughput_mbit_s"}


def test_lab_up_reach_measure_and_down_without_a_trace(lab_hosts, tmp_path):
    assert _status().returncode == 0
    with pytest.raises(lab.LabError, match="already up"):
        lab.up(lambda message: None)
    remotes = {role: Remote(lab_hosts[role]) for role in ROLES}
    try:
        _check_hosts(remotes, lab_hosts)
        _check_process_group(remotes["app"], tmp_path)
        _check_copy(remotes["database"], tmp_path)
        _check_links(remotes, tmp_path)
    finally:
        for remote in remotes.values():
            remote.close()
    assert lab.down(lambda message: None) is True
    assert _leftovers() == []
    assert lab.down(lambda message: None) is False
    assert _status().returncode == 1


def test_an_up_that_fails_half_way_leaves_nothing(monkeypatch):
    _skip_unless_the_lab_can_run()

    def broken(layout):
        raise lab.LabError("sshd would not answer")

    monkeypatch.setattr(lab, "_prove", broken)
    try:
        with pytest.raises(lab.LabError, match="would not answer"):
            lab.up(lambda message: None)
        assert _leftovers() == []
    finally:
        lab.down(lambda message: None)
