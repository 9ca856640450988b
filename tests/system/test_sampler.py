"""The sampler: CPU time and memory of a server's cgroup over a trial, and the harness kept off the server CPU."""

import os
import resource
import sys
import time
from pathlib import Path

import pytest

from webshootout.system import process
from webshootout.system.sampler import IDLE, INTERVAL, Sampler

MB = 1_000_000
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")

# A stand-in server driven by files: it waits for `go`, does `WORK`, then writes `done` and idles.
SERVER = """
import os, sys, time
while not os.path.exists("go"):
    time.sleep(0.01)
{work}
open("done", "w").close()
time.sleep(600)
"""

# Three short-lived children, each burning 0.3 s of CPU and exiting: their time counts though they are gone.
BURN_IN_CHILDREN = """
for _ in range(3):
    pid = os.fork()
    if pid == 0:
        start = time.process_time()
        while time.process_time() - start < 0.3:
            pass
        os._exit(0)
    os.waitpid(pid, 0)
"""

# 150 MB touched and freed again within half a second: between two samples.
SPIKE = """
block = bytearray(150_000_000)
for i in range(0, len(block), 4096):
    block[i] = 1
time.sleep(0.5)
del block
"""


def wait_for(path: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not path.exists():
        assert time.monotonic() < deadline, f"timed out waiting for {path.name}"
        time.sleep(0.02)


def start(tmp_path: Path, work: str, cpus: tuple[int, ...]) -> process.Running:
    (tmp_path / "server.py").write_text(SERVER.format(work=work))
    return process.start(f"exec {sys.executable} server.py", cwd=tmp_path, env={"PATH": os.environ["PATH"]},
                         cpus=cpus, log=tmp_path / "server.log")


def all_cpus() -> tuple[int, ...]:
    return tuple(sorted(os.sched_getaffinity(0)))


def test_cpu_time_counts_children_that_exit_during_the_trial(tmp_path, no_leftovers):
    running = start(tmp_path, BURN_IN_CHILDREN, all_cpus())
    try:
        with Sampler(running.group, interval=10) as sampler:  # one sample at each end: exact all the same
            t0 = time.monotonic()
            (tmp_path / "go").touch()
            wait_for(tmp_path / "done")
        elapsed = time.monotonic() - t0
    finally:
        assert running.stop() is None
    cpu_seconds = sampler.usage.cpu_percent / 100 * elapsed
    assert 0.9 <= cpu_seconds < 1.2, f"{cpu_seconds:.3f} s of CPU by {sampler.usage.cpu_method}"
    assert sampler.usage.samples == 2


def test_a_memory_spike_between_samples_is_seen_by_the_kernels_peak(tmp_path, no_leftovers):
    running = start(tmp_path, SPIKE, all_cpus())
    try:
        with Sampler(running.group, interval=10) as sampler:
            (tmp_path / "go").touch()
            wait_for(tmp_path / "done")
    finally:
        assert running.stop() is None
    usage = sampler.usage
    assert usage.rss_peak_mb < 100 and usage.memory_method
    if usage.kernel_peak_mb is None:
        pytest.skip(f"{usage.memory_method}: the kernel keeps no per-trial peak here")
    assert usage.kernel_peak_mb > 150


def test_nothing_to_sample_is_idle():
    with Sampler(None) as sampler:
        pass
    assert sampler.usage == IDLE


def thread_cpu_and_affinity() -> dict[int, tuple[float, set[int]]]:
    """CPU seconds and allowed CPUs of every thread of this process."""
    threads = {}
    for tid in os.listdir("/proc/self/task"):
        try:
            fields = Path(f"/proc/self/task/{tid}/stat").read_text().rpartition(")")[2].split()
            threads[int(tid)] = ((int(fields[11]) + int(fields[12])) / CLOCK_TICKS, os.sched_getaffinity(int(tid)))
        except (FileNotFoundError, ProcessLookupError):
            continue
    return threads


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="needs a CPU for the server and one for the harness")
def test_the_harness_spends_under_half_a_percent_of_a_sampled_window_on_the_server_cpu(tmp_path, no_leftovers):
    server_cpus = set(all_cpus()[:1])
    before = os.sched_getaffinity(0)
    running = start(tmp_path, "", tuple(server_cpus))  # an idle server: it waits for a `go` that never comes
    try:
        with process.pin_harness(tuple(server_cpus)) as away:
            assert away and not set(away) & server_cpus
            start_threads, start_usage, t0 = thread_cpu_and_affinity(), resource.getrusage(resource.RUSAGE_SELF), \
                time.monotonic()
            with Sampler(running.group) as sampler:
                time.sleep(5)
                during = thread_cpu_and_affinity()  # the sampler's thread is running now
                time.sleep(5)
                end_threads = thread_cpu_and_affinity()
            end_usage, elapsed = resource.getrusage(resource.RUSAGE_SELF), time.monotonic() - t0
        after = os.sched_getaffinity(0)
    finally:
        assert running.stop() is None
    assert sampler.usage.samples >= 10 / INTERVAL - 2 and len(during) > len(start_threads)
    # Every thread of the harness, the sampler's included, may run only away from the server CPU ...
    assert all(not allowed & server_cpus for sample in (during, end_threads) for _, allowed in sample.values())
    # ... so its time there, that of the threads allowed there, is nil whatever the scheduler did.
    on_server = sum(cpu - start_threads.get(tid, (0.0, set()))[0]
                    for tid, (cpu, allowed) in end_threads.items() if allowed & server_cpus)
    assert on_server / elapsed < 0.005
    # And the harness's whole CPU time in the window, wherever it ran, is small: a few file reads a second.
    total = (end_usage.ru_utime + end_usage.ru_stime) - (start_usage.ru_utime + start_usage.ru_stime)
    assert total / elapsed < 0.005, f"harness CPU {total:.3f} s in {elapsed:.1f} s"
    assert after == before  # the harness gets every CPU back after the trial


class _CountingGroup:
    """A Group stand-in counting reads: 1 s of CPU per read, memory rising by 1 MB per read."""

    memory_method = cpu_method = "counted"
    peak = None

    def __init__(self):
        self.reads = 0

    def cpu_seconds(self) -> float:
        self.reads += 1
        return float(self.reads)

    def memory_bytes(self) -> int:
        return self.reads * MB


def test_without_an_interval_the_group_is_read_at_the_start_and_end_only():
    group = _CountingGroup()
    with Sampler(group, interval=None) as sampler:
        time.sleep(0.3)
    assert group.reads == 2 and sampler.usage.samples == 2
    assert sampler.usage.rss_peak_mb == 2.0 and sampler.usage.cpu_percent > 0


class _ClockedGroup:
    """A Group stand-in whose CPU time follows a fake clock: half a CPU for 2 s (a warm-up), one CPU for 3 s
    (the window), then idle."""

    memory_method = cpu_method = "clocked"
    peak = None

    def __init__(self, clock: list[float]):
        self.clock = clock

    def cpu_seconds(self) -> float:
        t = self.clock[0]
        return 0.5 * min(t, 2.0) + max(0.0, min(t, 5.0) - 2.0)

    def memory_bytes(self) -> int:
        return MB


def test_the_cpu_of_a_span_leaves_out_what_came_before_and_after_it(monkeypatch):
    clock = [0.0]
    monkeypatch.setattr("webshootout.system.sampler.time.monotonic", lambda: clock[0])
    with Sampler(_ClockedGroup(clock), interval=None) as sampler:
        for clock[0] in (1.0, 2.0, 3.0, 4.0, 5.0, 5.5):
            sampler._sample()  # what the sampling thread does once per interval
        clock[0] = 6.0
    assert sampler.usage.cpu_percent == pytest.approx(100.0 * 4.0 / 6.0)
    assert sampler.during(2.0, 5.0).cpu_percent == pytest.approx(100.0)
    assert sampler.during(2.5, 4.5).cpu_percent == pytest.approx(100.0)  # between samples: interpolated
    assert sampler.during(1.0, 2.0).cpu_percent == pytest.approx(50.0)
    assert sampler.during(-3.0, 60.0) == sampler.usage  # clipped to what was sampled
    assert sampler.during(4.0, 4.0).cpu_percent == 0.0


class _ClockedCompiler:
    """A JIT's compiler threads on the same fake clock: they compile for 1 s of CPU within the first second
    of the window (2 to 3 s), then rest."""

    def __init__(self, clock: list[float]):
        self.clock = clock

    def cpu_seconds(self) -> float:
        return min(max(self.clock[0] - 2.0, 0.0), 1.0)


def test_the_jit_share_of_a_span_is_read_with_the_cpu():
    clock = [0.0]
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("webshootout.system.sampler.time.monotonic", lambda: clock[0])
        with Sampler(_ClockedGroup(clock), interval=None, jit=_ClockedCompiler(clock)) as sampler:
            for clock[0] in (1.0, 2.0, 3.0, 4.0, 5.0):
                sampler._sample()
    assert sampler.during(2.0, 5.0).jit_cpu_percent == pytest.approx(100.0 / 3)
    assert sampler.during(3.0, 5.0).jit_cpu_percent == 0.0
    with Sampler(_ClockedGroup(clock), interval=None) as plain:
        pass
    assert plain.usage.jit_cpu_percent is None  # nothing to watch: not a zero
