"""The CPU a server's JIT compiler spends while it is measured.

HotSpot compiles on threads of its own ("C1 CompilerThread0", "C2 CompilerThread0", cut by the kernel to
15 characters). On a server pinned to one CPU they take that CPU from the requests: Jetty's plaintext warm-up
held a level for three seconds on tier-1 code, and its next trials ran at 31.9k, then 57.9k and 64.5k
req/s while C2 compiled through the first of them (docs/method.md). A throughput plateau cannot tell such
a pause from warm code; the compiler threads' own CPU time can. Stacks whose compilers have no threads of
their own to tell apart (V8 compiles on its shared worker threads) are not covered.

The time is the kernel's per-thread run time (/proc/PID/task/TID/schedstat, nanoseconds), read only from
the compiler threads found when the trial starts: a few file reads per sample.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from .cgroup import PROC

COMPILER_THREADS = ("C1 CompilerThre", "C2 CompilerThre")
# A trial in which they ran more than this share of a CPU (percent) measured the compiler as much as the code.
LIMIT_PERCENT = 1.0


class CompilerThreads:
    """The compiler threads of a set of processes, as found once; a thread that exits keeps its last time."""

    def __init__(self, schedstats: list[Path]):
        self._seen = dict.fromkeys(schedstats, 0)

    @classmethod
    def of(cls, pids: Iterable[int], proc: Path = PROC) -> CompilerThreads | None:
        """The compiler threads of these processes, or None when they have none (no JIT of ours to watch)."""
        found = []
        for pid in pids:
            try:
                tasks = list((proc / str(pid) / "task").iterdir())
            except OSError:  # gone
                continue
            for task in tasks:
                try:
                    name = (task / "comm").read_text().rstrip("\n")
                except OSError:
                    continue
                if name.startswith(COMPILER_THREADS):
                    found.append(task / "schedstat")
        return cls(found) if found else None

    def cpu_seconds(self) -> float:
        """CPU seconds the threads have run, each as of its last read."""
        for path in self._seen:
            try:
                self._seen[path] = int(path.read_text().split()[0])
            except (OSError, IndexError, ValueError):  # exited since: its time up to the last read stays
                continue
        return sum(self._seen.values()) / 1e9
