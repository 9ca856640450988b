"""A server's CPU time and memory during a trial, from its cgroup (see cgroup.py for what is counted)."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass

from .cgroup import Group


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


IDLE = Usage(0.0, 0.0, 0.0, 0)  # nothing to sample (no database in this run)


class Sampler:
    """Use as a context manager around a trial; `usage` is set on exit.

    CPU is the group's accumulated CPU time at the end minus at the start, so it is exact whatever the
    interval; memory is read every `interval` seconds, a few file reads per sample, or (interval None) only
    at the start and the end.
    """

    def __init__(self, group: Group | None, interval: float | None = 1.0):
        self._group = group
        self._interval = interval
        self._memory: list[int] = []
        self._cpu_start = self._cpu_end = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, name="sampler", daemon=True)
        self.usage: Usage | None = None

    def _sample(self) -> None:
        # The fallback without cgroups learns the CPU time of processes only by seeing them: read it each time.
        self._cpu_end = self._group.cpu_seconds()
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
        self._cpu_start = self._cpu_end
        self._t0 = time.monotonic()
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
        elapsed = time.monotonic() - self._t0
        peak = self._group.peak
        self.usage = Usage(
            cpu_percent=100.0 * (self._cpu_end - self._cpu_start) / elapsed if elapsed > 0 else 0.0,
            rss_peak_mb=max(self._memory) / 1e6,
            rss_mean_mb=sum(self._memory) / len(self._memory) / 1e6,
            samples=len(self._memory),
            memory_method=self._group.memory_method,
            cpu_method=self._group.cpu_method,
            kernel_peak_mb=peak.read() / 1e6 if peak is not None else None)
