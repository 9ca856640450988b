"""A server's CPU time and memory during a trial, from its cgroup (see cgroup.py for what is counted)."""

from __future__ import annotations

import bisect
import threading
import time
from dataclasses import dataclass

from .cgroup import Group
from .jit import CompilerThreads


@dataclass(frozen=True)
class Usage:
    cpu_percent: float  # 100 = one CPU fully busy
    rss_peak_mb: float  # of the memory samples, each counted as `memory_method` says
    rss_mean_mb: float
    samples: int
    # How memory and CPU were counted, e.g. "cgroup v1 memory.stat total_rss + total_shmem" (cgroup.py says why).
    memory_method: str = ""
    cpu_method: str = ""
    # The kernel's own high-water mark over the trial, page cache included, where it keeps one per trial.
    kernel_peak_mb: float | None = None
    # The share of one CPU the server's JIT compiler threads ran (jit.py); None where it has none to watch.
    jit_cpu_percent: float | None = None


IDLE = Usage(0.0, 0.0, 0.0, 0)  # nothing to sample (no database in this run)

# Seconds between samples: a few file reads on the harness's own CPU. Four a second put the measured
# window's edges, where the CPU share is interpolated, within a quarter second of a read.
INTERVAL = 0.25


class Sampler:
    """Use as a context manager around a trial; `usage` is set on exit, `during(start, end)` gives a span's.

    CPU is the group's accumulated CPU time, read with the time at every sample: exact between samples
    whatever the interval, and interpolated within one. Memory is read every `interval` seconds, a few file
    reads per sample, or (interval None) only at the start and the end. A JIT's compiler threads, where
    given, are read with the group's CPU.
    """

    def __init__(self, group: Group | None, interval: float | None = INTERVAL, jit: CompilerThreads | None = None):
        self._group = group
        self._interval = interval
        self._jit = jit
        self._memory: list[int] = []
        self._cpu: list[tuple[float, float]] = []  # (time.monotonic(), the group's CPU seconds so far)
        self._jit_cpu: list[tuple[float, float]] = []  # (the same time, the compiler threads' CPU seconds)
        self._kernel_peak_mb: float | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sampler", daemon=True)
        self.usage: Usage | None = None

    def _sample(self) -> None:
        # The fallback without cgroups learns the CPU time of processes only by seeing them: read it each time.
        now = time.monotonic()
        self._cpu.append((now, self._group.cpu_seconds()))
        if self._jit is not None:
            self._jit_cpu.append((now, self._jit.cpu_seconds()))
        self._memory.append(self._group.memory_bytes())

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            self._sample()

    def __enter__(self) -> Sampler:
        if self._group is None:
            return self
        if self._group.peak is not None:
            self._group.peak.start()
        self._sample()
        if self._interval is not None:
            self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        if self._group is None:
            self.usage = IDLE
            return
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        self._sample()
        if self._group.peak is not None:
            self._kernel_peak_mb = self._group.peak.read() / 1e6
        self.usage = self.during(self._cpu[0][0], self._cpu[-1][0])

    def during(self, start: float, end: float) -> Usage:
        """After the `with`: usage with the CPU of [start, end] (time.monotonic(), clipped to what was sampled),
        such as a load's measured window without its connects and warm-up; memory stays that of every sample."""
        if self._group is None:
            return IDLE
        first, last = self._cpu[0][0], self._cpu[-1][0]
        start, end = min(max(start, first), last), min(max(end, first), last)

        def percent(series: list[tuple[float, float]]) -> float:
            return 100.0 * (_at(series, end) - _at(series, start)) / (end - start) if end > start else 0.0

        return Usage(
            cpu_percent=percent(self._cpu),
            rss_peak_mb=max(self._memory) / 1e6,
            rss_mean_mb=sum(self._memory) / len(self._memory) / 1e6,
            samples=len(self._memory),
            memory_method=self._group.memory_method,
            cpu_method=self._group.cpu_method,
            kernel_peak_mb=self._kernel_peak_mb,
            jit_cpu_percent=percent(self._jit_cpu) if self._jit_cpu else None)


def _at(series: list[tuple[float, float]], when: float) -> float:
    """A series' CPU seconds at `when`, on the line between the samples either side of it."""
    after = bisect.bisect_left(series, when, key=lambda sample: sample[0])
    if after == 0:
        return series[0][1]
    (t0, c0), (t1, c1) = series[after - 1], series[min(after, len(series) - 1)]
    return c0 if t1 <= t0 else c0 + (c1 - c0) * (when - t0) / (t1 - t0)
