import os
import subprocess
import time

import pytest

from integration.labhosts import lab_hosts
from webshootout.hosts.remote import Remote, RemoteError
from webshootout.hosts.remote_group import Member, RemoteGroup, RemoteGroupError, parse_probe


class LocalRemote:
    """Runs the probe on this machine: the same /proc a remote host would show, without ssh."""

    def __init__(self, fail: bool = False):
        self.fail = fail
        self.calls = 0

    def __repr__(self) -> str:
        return "database (root@db.example)"

    def run(self, argv, *, timeout):
        self.calls += 1
        if self.fail:
            raise RemoteError(f"{self}: ssh failed: {argv[0]}")
        return subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=True)


def test_parses_members_and_pss():
    members = parse_probe("100\n12 1 500 250 1024\n13 12 600 50 -\n", "db")
    assert members == [Member(12, 1, 500, 2.5, 1024), Member(13, 12, 600, 0.5, None)]


def test_an_empty_group_has_no_members():
    assert parse_probe("100\n", "db") == []


@pytest.mark.parametrize("text, wrong", [
    ("", "no clock tick rate"),
    ("0\n", "no clock tick rate"),
    ("100\n12 1 500\n", "unexpected line"),
    ("100\n12 1 500 x 4\n", "unexpected line"),
    ("100\n12 1 500 4 4kB\n", "unexpected line"),
])
def test_malformed_probe_output_names_the_host(text, wrong):
    with pytest.raises(RemoteGroupError, match=f"^database host: .*{wrong}"):
        parse_probe(text, "database host")


def test_cpu_of_a_reaped_child_is_left_to_its_parent_and_of_an_exited_leader_is_kept():
    group = RemoteGroup(LocalRemote(), 40)
    leader, worker = Member(40, 1, 7, 1.0, None), Member(41, 40, 8, 2.0, None)
    assert group.account([leader, worker]) == 3.0
    # The worker exits and the leader reaps it: its 2 s (and 0.5 s more) are now in the leader's cutime.
    assert group.account([Member(40, 1, 7, 3.5, None)]) == 3.5
    # The leader exits with nobody in the group to reap it; its orphaned child goes on.
    assert group.account([Member(42, 1, 9, 0.25, None)]) == 3.75
    # A new process reusing a pid is a new member, not the old one.
    assert group.account([Member(42, 1, 9, 0.5, None), Member(40, 42, 99, 0.125, None)]) == 4.125


def test_reads_this_process_group_from_proc_in_one_call_each():
    remote = LocalRemote()
    group = RemoteGroup(remote, os.getpgrp())
    assert os.getpid() in group.pids()
    assert group.cpu_seconds() > 0
    assert group.memory_bytes() > 1_000_000  # at least this Python interpreter
    assert remote.calls == 3
    assert group.peak is None and "PSS" in group.memory_method and "process group" in group.cpu_method


def test_a_failed_round_trip_names_the_host_and_group():
    with pytest.raises(RemoteGroupError, match=r"^database \(root@db.example\) process group 40: cannot read"):
        RemoteGroup(LocalRemote(fail=True), 40).cpu_seconds()


@pytest.mark.integration
@pytest.mark.timeout(120)
def test_samples_a_busy_loop_started_on_a_lab_host(tmp_path):
    # A busy loop pinned to one CPU, and a child that leaves the group as PostgreSQL's backends do.
    script = "setsid sleep 600 & while :; do :; done"
    with lab_hosts() as hosts, Remote(hosts["app"]) as remote:
        started = remote.start(["sh", "-c", script], log=tmp_path / "busy.log", cpus=hosts["app"].cpus[:1])
        try:
            group = RemoteGroup(remote, started.pgid)
            assert len(group.pids()) == 2
            first, t0 = group.cpu_seconds(), time.monotonic()
            time.sleep(2)
            busy = (group.cpu_seconds() - first) / (time.monotonic() - t0)
            assert 0.3 < busy < 1.3, busy
            assert 100_000 < group.memory_bytes() < 50_000_000
        finally:
            assert "outside its group, killed" in started.stop()
        assert group.pids() == set()
