"""Whether the server's CPU and the load generator's share a cache right now, and waiting until they do.

A virtual machine's CPUs are threads of the host, which may run two of them on cores that share a cache
or on cores that do not, and move them for tens of seconds at a time. On the 2-CPU KVM machine this
project is measured on, a cache line's round trip between the two CPUs went from about 100 ns to about
450 ns for 10-40 s at a time, and a server and its load generator, which hand every packet across the two
CPUs, lost 10-15 % of their throughput meanwhile (docs/method.md). So before each trial the harness waits,
up to WAIT_CAP seconds, until the round trip is within FAR times the best the run has seen, and records
the round trips before and after the trial; a trial with a far one is flagged `cpus-far`, by the harness
against the best so far and by the reports against the run's best (a run that started far learns what near
is only later).
"""

from __future__ import annotations

import json
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

# A round trip this many times the run's best: the two CPUs no longer share a cache (near and far
# differed by 4-5 times on the machine above; on one that keeps its CPUs in place every probe is near).
FAR = 2.0
WAIT_CAP = 20.0
POLL = 0.25
PROBE_MS = 20
# CPUs that share a cache hand a line back and forth in well under this; at the start of a run the harness
# waits up to START_WAIT for a round trip below it, so the run knows what near is before its first trial.
SURELY_NEAR_NS = 200.0
START_WAIT = 10.0


class LinkError(Exception):
    """shootout-cpulink could not measure."""


@dataclass(frozen=True)
class Measured:
    """The link around one trial, as the trial's result line carries it (`cpu_link`)."""

    before_ns: float
    after_ns: float
    best_ns: float  # the run's best round trip when the trial ended
    waited_s: float  # how long the trial waited for the CPUs to come close

    @property
    def far(self) -> bool:
        return max(self.before_ns, self.after_ns) > FAR * self.best_ns

    def to_dict(self) -> dict:
        return {"before_ns": self.before_ns, "after_ns": self.after_ns, "best_ns": self.best_ns,
                "waited_s": round(self.waited_s, 2)}


def probe_with(binary: Path, a: int, b: int) -> Callable[[], float]:
    """A probe that runs shootout-cpulink between CPUs a and b and returns the round trip in ns."""

    def probe() -> float:
        try:
            done = subprocess.run([str(binary), str(a), str(b), str(PROBE_MS)], capture_output=True, text=True,
                                  timeout=10)
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise LinkError(f"{binary}: {exc}") from None
        if done.returncode != 0:
            raise LinkError(done.stderr.strip() or f"{binary} exited with code {done.returncode}")
        try:
            return float(json.loads(done.stdout)["round_trip_ns"])
        except (ValueError, KeyError, TypeError):
            raise LinkError(f"{binary} printed {done.stdout.strip()!r}, not a round trip") from None

    return probe


class Link:
    """The run's view of how far apart the server CPU and the load CPU are."""

    def __init__(self, probe: Callable[[], float], clock: Callable[[], float] = time.monotonic,
                 sleep: Callable[[float], None] = time.sleep):
        self._probe, self._clock, self._sleep = probe, clock, sleep
        self.best: float | None = None

    def calibrate(self, say: Callable[[str], None]) -> None:
        """The run's first probes: on until a round trip is surely near, or START_WAIT has passed."""
        start = self._clock()
        ns = self.probe()
        if ns >= SURELY_NEAR_NS:
            say(f"the server and load CPUs are far apart (a cache line's round trip takes {ns:.0f} ns): probing "
                f"for up to {START_WAIT:g} s for them to come close before the first trial")
        while ns >= SURELY_NEAR_NS and self._clock() - start < START_WAIT:
            self._sleep(POLL)
            ns = self.probe()

    def probe(self) -> float:
        ns = self._probe()
        self.best = ns if self.best is None else min(self.best, ns)
        return ns

    def _far(self, ns: float) -> bool:
        return self.best is not None and ns > FAR * self.best

    def wait_near(self, say: Callable[[str], None]) -> tuple[float, float]:
        """Probes until the CPUs are near (or WAIT_CAP has passed); returns the last round trip and the wait."""
        start = self._clock()
        ns = self.probe()
        if self._far(ns):
            say(f"    waiting for the server and load CPUs to share a cache again: a round trip takes {ns:.0f} ns, "
                f"the run's best {self.best:.0f} ns (up to {WAIT_CAP:g} s)")
        while self._far(ns) and self._clock() - start < WAIT_CAP:
            self._sleep(POLL)
            ns = self.probe()
        waited = self._clock() - start
        if waited >= POLL:
            say(f"    {'near again' if not self._far(ns) else 'still far, measuring anyway'} after {waited:.1f} s")
        return ns, waited

    def after(self, before_ns: float, waited_s: float) -> Measured:
        """The link around a trial that just ended: the round trip before it (from wait_near) and now."""
        return Measured(before_ns, self.probe(), self.best, waited_s)


def judged(trials: list[dict]) -> list[dict]:
    """The trials, with `cpus-far` added to those whose link was far from the best of all of them: the harness
    judged each against the best it had seen by then, which a run that started far had not yet found."""
    links = [t["cpu_link"] for t in trials if t.get("cpu_link")]
    if not links:
        return trials
    best = min(min(link["before_ns"], link["after_ns"]) for link in links)
    far = [t.get("cpu_link") and max(t["cpu_link"]["before_ns"], t["cpu_link"]["after_ns"]) > FAR * best
           and "cpus-far" not in t["flags"] for t in trials]
    return [{**t, "flags": [*t["flags"], "cpus-far"]} if f else t for t, f in zip(trials, far)]
