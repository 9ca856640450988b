"""Samples a server's whole process tree (CPU %, RSS) on a background thread during a trial."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Callable

import psutil


@dataclass(frozen=True)
class Usage:
    cpu_percent: float  # 100 = one CPU fully busy
    rss_peak_mb: float
    rss_mean_mb: float
    samples: int


class Sampler:
    """Use as a context manager around a trial; `usage` is set on exit."""

    def __init__(self, processes: Callable[[], list[psutil.Process]], interval: float = 0.25):
        self._processes = processes
        self._interval = interval
        self._cpu: dict[int, float] = {}  # last CPU seconds seen per pid (exited processes keep theirs)
        self._start_cpu: dict[int, float] = {}
        self._rss: list[float] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)
        self.usage: Usage | None = None

    def _sample(self) -> None:
        total_rss = 0
        for proc in self._processes():
            try:
                with proc.oneshot():
                    times = proc.cpu_times()
                    rss = proc.memory_info().rss
            except (psutil.NoSuchProcess, psutil.ZombieProcess, psutil.AccessDenied):
                continue
            cpu = times.user + times.system
            # A process born during the trial spent all its CPU time in it.
            self._start_cpu.setdefault(proc.pid, 0.0 if self._started else cpu)
            self._cpu[proc.pid] = cpu
            total_rss += rss
        self._rss.append(total_rss / 1e6)

    def _loop(self) -> None:
        while not self._stop.wait(self._interval):
            self._sample()

    def __enter__(self) -> Sampler:
        self._started = False
        self._sample()
        self._started = True
        self._t0 = time.monotonic()
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()
        self._sample()
        elapsed = time.monotonic() - self._t0
        used = sum(self._cpu[pid] - self._start_cpu.get(pid, 0.0) for pid in self._cpu)
        self.usage = Usage(cpu_percent=100.0 * used / elapsed if elapsed > 0 else 0.0,
                           rss_peak_mb=max(self._rss, default=0.0),
                           rss_mean_mb=sum(self._rss) / len(self._rss) if self._rss else 0.0,
                           samples=len(self._rss))
