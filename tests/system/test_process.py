import os
import pwd
import resource
import time
from pathlib import Path

import psutil
import pytest

from webshootout.system import process


def test_fd_limit_is_raised_for_ten_thousand_connections():
    soft_before, hard_before = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        soft = process.raise_fd_limit()
        now_soft, now_hard = resource.getrlimit(resource.RLIMIT_NOFILE)
        # Up to the hard limit, which root raises too where the sandbox allows it.
        assert now_soft == soft == min(now_hard, process.FD_LIMIT) and now_hard >= hard_before
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft_before, resource.getrlimit(resource.RLIMIT_NOFILE)[1]))


def launch(tmp_path: Path, command: str, **how) -> process.Running:
    return process.launch(process.Launch(command, tmp_path, {"PATH": os.environ["PATH"]},
                                         tuple(sorted(os.sched_getaffinity(0))), tmp_path / "server.log", **how))


def test_a_server_ignoring_the_stop_signal_is_killed_and_its_group_removed(tmp_path, no_leftovers):
    running = launch(tmp_path, "trap '' TERM; sleep 600 & wait", grace=0.5)
    try:
        deadline = time.monotonic() + 10
        while len(running.group.pids()) < 2:
            assert time.monotonic() < deadline, "the server never forked"
            time.sleep(0.05)
    finally:
        fault = running.stop()
    assert fault and "did not stop within 0s" in fault and "was killed" in fault
    assert not any(d.exists() for d in running.group.dirs)


def test_cpus_taskset_refuses_make_the_start_fail_with_the_exit_code(tmp_path, no_leftovers):
    running = process.start("sleep 600", cwd=tmp_path, env={"PATH": os.environ["PATH"]}, cpus=(4095,),
                            log=tmp_path / "server.log")
    try:
        with pytest.raises(process.StartError, match="exited with code 1"):
            process.wait_ready(running, "http://127.0.0.1:9", "/", timeout=10)
    finally:
        assert running.stop() is None
    assert "taskset" in process.log_tail(running.log)


@pytest.mark.skipif(os.geteuid() != 0, reason="starting as another user needs root")
def test_a_start_as_another_user_is_in_its_group_before_it_runs(tmp_path, no_leftovers):
    running = launch(tmp_path, "id -u; exec sleep 600", user="nobody")
    try:
        deadline = time.monotonic() + 10
        while "sleep" not in {psutil.Process(pid).name() for pid in running.group.pids()}:
            assert time.monotonic() < deadline, "the user's process never reached its group"
            time.sleep(0.05)
    finally:
        assert running.stop() is None
    assert process.log_tail(running.log).strip() == str(pwd.getpwnam("nobody").pw_uid)


def test_the_harness_leaves_the_server_cpus_for_the_with_and_gets_them_back(tmp_path):
    cpus = os.sched_getaffinity(0)
    if len(cpus) < 2:
        pytest.skip("one CPU: nowhere to go")
    server = (min(cpus),)
    with pytest.raises(KeyError):
        with process.pin_harness(server) as away:
            assert set(away) == cpus - set(server)
            assert all(os.sched_getaffinity(int(t)) == set(away) for t in os.listdir("/proc/self/task"))
            raise KeyError("the trial failed")
    assert os.sched_getaffinity(0) == cpus


def test_with_every_cpu_given_to_the_server_the_harness_stays_where_it_is():
    cpus = os.sched_getaffinity(0)
    with process.pin_harness(tuple(cpus)) as away:
        assert away == () and os.sched_getaffinity(0) == cpus
