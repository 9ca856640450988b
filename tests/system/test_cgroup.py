"""Control groups per start: shared pages count once, members cannot escape, groups are gone after stop."""

import os
import subprocess
import sys
import time
from pathlib import Path

import psutil
import pytest

from webshootout.system import cgroup, process

MB = 1_000_000

# Allocates and touches 200 MB of private memory and 100 MB of shared memory (as opcache or PostgreSQL's
# shared buffers), then forks 20 children that keep both (the private part copy-on-write, never written
# again), as prefork servers share their parent's pages; prints "ready" when every child is up.
PREFORK = """
import mmap, os, sys, time
block = bytearray(200_000_000)
shared = mmap.mmap(-1, 100_000_000, flags=mmap.MAP_SHARED)
for i in range(0, len(block), 4096):
    block[i] = 1
for i in range(0, len(shared), 4096):
    shared[i] = 1
children = []
for _ in range(20):
    pid = os.fork()
    if pid == 0:
        time.sleep(600)
        os._exit(0)
    children.append(pid)
print("ready", flush=True)
time.sleep(600)
"""


def start(command: str, tmp_path: Path) -> process.Running:
    return process.start(command, cwd=tmp_path, env={"PATH": os.environ["PATH"]},
                         cpus=tuple(sorted(os.sched_getaffinity(0))), log=tmp_path / "server.log")


def wait_for(condition, timeout: float = 30.0, what: str = "condition") -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


@pytest.fixture(params=["cgroup", "fallback"])
def accounting(request, monkeypatch) -> str:
    """Runs a test with this machine's cgroups and again with the fallback for machines without them."""
    if request.param == "fallback":
        monkeypatch.setattr(cgroup, "create", cgroup.Tagged)
    return request.param


def cgroups_writable() -> bool:
    group = cgroup.create("probe-" + os.urandom(8).hex())
    group.remove()
    return not isinstance(group, cgroup.Tagged)


def test_prefork_children_sharing_pages_count_them_once(tmp_path, accounting, no_leftovers):
    script = tmp_path / "prefork.py"
    script.write_text(PREFORK)
    running = start(f"exec {sys.executable} {script}", tmp_path)
    try:
        wait_for(lambda: "ready" in process.log_tail(running.log), what="the prefork children")
        pids = running.group.pids()
        assert len(pids) == 21
        summed_rss = sum(psutil.Process(pid).memory_info().rss for pid in pids)
        counted = running.group.memory_bytes()
    finally:
        assert running.stop() is None
    # Summed RSS counts the private block once per process (and shared pages once per process touching
    # them); the group holds each page once.
    assert summed_rss > 20 * 200 * MB
    assert 300 * MB < counted < 450 * MB, f"{counted / MB:.0f} MB by {running.group.memory_method}"


def test_everything_a_start_forks_is_in_its_group_from_the_first_instruction(tmp_path, no_leftovers):
    # Forks before anything else runs: without the gate a child could be forked before the group exists.
    running = start("sleep 600 & sleep 600 & exec sleep 600", tmp_path)
    try:
        wait_for(lambda: len(psutil.Process(running.pid).children(recursive=True)) == 2, what="two children")
        tree = {running.pid, *(p.pid for p in psutil.Process(running.pid).children(recursive=True))}
        assert running.group.pids() == tree
    finally:
        assert running.stop() is None


def test_a_double_forked_daemon_is_found_killed_and_the_group_removed(tmp_path, accounting, no_leftovers):
    # The daemon leaves the process group (setsid) and the tree (its parent exits, so init adopts it).
    running = start("(setsid sleep 600 &) ; exec sleep 600", tmp_path)
    dirs = running.group.dirs
    try:
        def daemon() -> list[int]:
            return [pid for pid in running.group.pids() if os.getpgid(pid) != running.pid]
        wait_for(lambda: daemon(), what="the daemon")
        (escaped,) = daemon()
        assert psutil.Process(escaped).ppid() != running.pid
    finally:
        fault = running.stop()
    assert fault and "outside its process group" in fault and f"{escaped} sleep" in fault
    assert not psutil.pid_exists(escaped) or psutil.Process(escaped).status() == psutil.STATUS_ZOMBIE
    assert not any(d.exists() for d in dirs)


def test_without_cgroups_the_tagged_processes_are_measured(tmp_path):
    group = cgroup.Tagged("t" + os.urandom(8).hex())
    burn = "import time\nb = bytearray(50_000_000)\nt = time.process_time()\nwhile time.process_time() - t < 0.5: pass\ntime.sleep(600)"
    child = subprocess.Popen([sys.executable, "-c", burn], env={**os.environ, cgroup.TOKEN_VAR: group.token})
    try:
        wait_for(lambda: group.pids() == {child.pid} and group.cpu_seconds() >= 0.5, what="the busy child")
        assert group.memory_bytes() > 50 * MB
    finally:
        child.kill()
        child.wait()
    assert group.pids() == set()
    assert group.cpu_seconds() >= 0.5  # still counted once the process is gone


def fake_system(tmp_path: Path, monkeypatch, mounts: str, own: str) -> None:
    (tmp_path / "mounts").write_text(mounts)
    (tmp_path / "cgroup").write_text(own)
    monkeypatch.setattr(cgroup, "MOUNTS", tmp_path / "mounts")
    monkeypatch.setattr(cgroup, "OWN_CGROUPS", tmp_path / "cgroup")


def test_a_unified_hierarchy_with_memory_is_used_below_the_parent_of_our_group(tmp_path, monkeypatch):
    unified = tmp_path / "fs"
    (unified / "user.slice" / "session.scope").mkdir(parents=True)
    (unified / "cgroup.controllers").write_text("cpu io memory pids\n")
    fake_system(tmp_path, monkeypatch, f"cgroup2 {unified} cgroup2 rw,nosuid 0 0\n",
                "0::/user.slice/session.scope\n")
    assert cgroup.Hierarchies.read() == cgroup.Hierarchies({}, unified / "user.slice")


def test_a_hybrid_machine_uses_its_v1_controllers(tmp_path, monkeypatch):
    unified = tmp_path / "unified"
    unified.mkdir()
    (unified / "cgroup.controllers").write_text("\n")  # every controller is bound to a v1 hierarchy
    fake_system(tmp_path, monkeypatch,
                f"cgroup {tmp_path}/cpu,cpuacct cgroup rw,cpu,cpuacct 0 0\ncgroup {tmp_path}/memory cgroup rw,memory 0 0\n"
                f"cgroup2 {unified} cgroup2 rw 0 0\n",
                "4:memory:/machine/ours\n2:cpu,cpuacct:/\n0::/\n")
    assert cgroup.Hierarchies.read() == cgroup.Hierarchies(
        {"cpu": tmp_path / "cpu,cpuacct", "cpuacct": tmp_path / "cpu,cpuacct",
         "memory": tmp_path / "memory" / "machine" / "ours"}, None)


def test_v2_counts_anonymous_and_shared_memory_and_cpu_usage(tmp_path):
    (tmp_path / "memory.stat").write_text("anon 1000\nfile 9000\nfile_mapped 300\nshmem 200\n")
    (tmp_path / "cpu.stat").write_text("usage_usec 2500000\nuser_usec 2000000\nsystem_usec 500000\n")
    group = cgroup.V2(tmp_path)
    assert group.memory_bytes() == 1200 and group.cpu_seconds() == 2.5


@pytest.mark.skipif(not cgroups_writable(), reason="no writable cgroup hierarchy here")
def test_a_group_is_removed_even_when_the_start_fails(tmp_path, no_leftovers):
    running = start("exit 3", tmp_path)
    dirs = running.group.dirs
    running.popen.wait(timeout=10)
    assert running.stop() is None
    assert not any(d.exists() for d in dirs)


def unified_mount() -> Path | None:
    for line in Path("/proc/self/mounts").read_text().splitlines():
        _, where, kind, *_ = line.split()
        if kind == "cgroup2" and os.access(where, os.W_OK):
            return Path(where)
    return None


@pytest.mark.skipif(unified_mount() is None, reason="no writable cgroup v2 hierarchy")
def test_v2_membership_cpu_time_and_removal_on_the_real_unified_hierarchy(tmp_path):
    group = cgroup.V2(unified_mount() / f"webshootout-test-{os.urandom(8).hex()}")
    group.dirs[0].mkdir()
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\ntime.sleep(600)"
    child = subprocess.Popen([sys.executable, "-c", burn])
    try:
        group.add(child.pid)
        assert group.pids() == {child.pid}
        wait_for(lambda: group.cpu_seconds() >= 0.2, what="CPU time counted in the group")
    finally:
        child.kill()
        child.wait()
        group.remove()
    assert not group.dirs[0].exists() and group.pids() == set()


def test_a_v2_quota_is_written_to_cpu_max_and_lifted(tmp_path):
    (tmp_path / "cgroup.subtree_control").write_text("memory\n")
    group = cgroup.V2(tmp_path / "webshootout-x")
    group.dirs[0].mkdir()
    with cgroup.cpu_quota(group, 0.97):
        assert (group.dirs[0] / "cpu.max").read_text() == "97000 100000"
        assert (tmp_path / "cgroup.subtree_control").read_text() == "+cpu"  # what enables the controller
    assert (group.dirs[0] / "cpu.max").read_text() == "max 100000"


def test_a_quota_without_a_hierarchy_is_refused_saying_so():
    with pytest.raises(cgroup.CgroupError, match="needs a writable cgroup hierarchy"):
        with cgroup.cpu_quota(cgroup.Tagged("x"), 0.97):
            pass


@pytest.mark.skipif(not cgroups_writable(), reason="no writable cgroup hierarchy here")
def test_a_quota_holds_a_busy_server_to_its_share_of_a_cpu_and_leaves_nothing(tmp_path, no_leftovers):
    running = start(f"exec {sys.executable} -c 'while True: pass'", tmp_path)
    try:
        wait_for(lambda: running.group.cpu_seconds() > 0.05, what="the loop to run")
        with cgroup.cpu_quota(running.group, 0.25):
            before, start_time = running.group.cpu_seconds(), time.monotonic()
            time.sleep(1.0)
            share = (running.group.cpu_seconds() - before) / (time.monotonic() - start_time)
        assert 0.15 < share < 0.35, share
    finally:
        assert running.stop() is None
    assert running.group.dirs[0].name not in cgroup.every_group(), "the quota's group (v1: in the cpu hierarchy)"
