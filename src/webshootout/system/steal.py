"""Steal time: how long the hypervisor ran something else while one of our CPUs wanted to run.

A virtual CPU that is stolen from stops, whatever runs on it: a server or a load generator on a stolen CPU
serves or sends less, and nothing in the guest but this counter says why. The kernel counts it per CPU in
/proc/stat (the eighth number after the CPU's name, in USER_HZ ticks); a trial records the share of its
CPUs' time stolen over its load run.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path

STAT = Path("/proc/stat")
TICKS = os.sysconf("SC_CLK_TCK")


def _ticks(cpus: tuple[int, ...], stat: Path) -> int:
    wanted = {f"cpu{cpu}" for cpu in cpus}
    total = 0
    for line in stat.read_text().splitlines():
        fields = line.split()
        if fields and fields[0] in wanted:
            total += int(fields[8])
    return total


@dataclass
class Steal:
    """Started before a load run, `percent` after it: the share of these CPUs' time the host took."""

    cpus: tuple[int, ...]
    stat: Path = STAT

    def __post_init__(self) -> None:
        self._start, self._ticks = time.monotonic(), _ticks(self.cpus, self.stat)

    def percent(self) -> float:
        elapsed = time.monotonic() - self._start
        stolen = (_ticks(self.cpus, self.stat) - self._ticks) / TICKS
        return 100.0 * stolen / (elapsed * len(self.cpus)) if elapsed > 0 else 0.0
