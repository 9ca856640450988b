"""How long the rest of a run will take, and whether that can be trusted.

A trial's cost is the wall time from the end of the trial before it to its own end: its connect phase, its
point's warm-up (until steady, up to 90 s for a JIT stack), JIT reruns and server starts are all in it. What
decides the cost is the suite part (its workload and profile), the connections (10,000 take a connect phase
of seconds to a minute) and whether the trial is the first of its point (the one after the point's warm-up),
so costs are kept per such kind: the mean of what this run measured, else of what the previous run of the
same suite measured, else a guess from the settings, which the estimate then says it is unsure of.
(hello-compiled said "~240 s left" at 355 s and ended at 1,450 s when every trial was priced at its window
and a share of the warm-up.)
"""

from __future__ import annotations

import statistics
import time
from collections import Counter, defaultdict
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from .. import harness
from ..config import profiles
from ..config.settings import Settings
from ..results.rundir import ResultsError, RunDir
from ..stacks import catalog

# A kind with fewer measured trials than this (in this run, or else the previous one) is priced uncertainly.
SURE_AFTER = 2
# Costs of one kind that spread more than this (coefficient of variation) make its price uncertain.
SPREAD = 0.5


@dataclass(frozen=True, order=True)
class Kind:
    """What decides a trial's cost."""

    part: str
    connections: int
    first: bool  # the first trial of its point measured in this session: its point's warm-up precedes it

    def __str__(self) -> str:
        if not self.part:  # ANY: a plan that counts trials only (ab's)
            return "trials"
        return f"{self.part} at {self.connections:,} connections" + (", first of a point" if self.first else "")


ANY = Kind("", 0, False)  # a plan that only knows how many trials are left


@dataclass(frozen=True)
class Estimate:
    seconds: float
    unsure: str | None  # why it may be far off; None when every kind left has been measured enough

    def text(self) -> str:
        return f"~{self.seconds:,.0f}s left" + (f", unsure: {self.unsure}" if self.unsure else "")


class Eta:
    """The trials left, by kind, and what each kind has cost so far."""

    def __init__(self, remaining: Counter, guess: float, previous: dict[Kind, list[float]] | None = None,
                 clock=time.monotonic):
        self.remaining, self.guess, self.previous, self.clock = Counter(remaining), guess, previous or {}, clock
        self.costs: dict[Kind, list[float]] = defaultdict(list)
        self.last = clock()

    def finished(self, kind: Kind) -> None:
        """A trial of `kind` was recorded now. A plan may have put it under the other `first` (a point without a
        warm-up) or know only a count (ANY): it is taken from there."""
        now = self.clock()
        candidates = (kind, Kind(kind.part, kind.connections, not kind.first), ANY)
        planned = next((k for k in candidates if self.remaining[k] > 0), kind)
        self.costs[planned].append(now - self.last)
        self.last = now
        self.remaining[planned] = max(0, self.remaining[planned] - 1)

    def estimate(self) -> Estimate:
        seconds, doubts = 0.0, []
        for kind, count in sorted(self.remaining.items()):
            if count <= 0:
                continue
            known = self.costs.get(kind) or self.previous.get(kind) or []
            if not known:
                seconds += count * self.guess
                doubts.append(f"{count} trial{'s' * (count > 1)} of {kind} not measured yet" if kind != ANY
                              else "no trial measured yet")
                continue
            mean = statistics.fmean(known)
            seconds += count * mean
            if len(known) < SURE_AFTER or statistics.pstdev(known) > SPREAD * mean:
                doubts.append(f"{kind}: {len(known)} trial{'s' * (len(known) > 1)} measured"
                              + ("" if self.costs.get(kind) else " in the previous run")
                              + f", {min(known):.0f}-{max(known):.0f}s each")
        return Estimate(seconds, "; ".join(doubts) or None)


def plan(settings: Settings, variants: list[catalog.Variant], done: dict) -> Counter:
    """The trials a run has left, by kind; `done` holds the trial keys already recorded (a resumed run). A rate
    sweep's points are known only once its capacity is, so its trials are counted at their declared steps."""
    left: Counter = Counter()
    for part in settings.parts:
        for variant in catalog.select(variants, part.frameworks):
            if variant.unavailable:
                continue
            for workload in harness.workloads_of(variant, part.workloads):
                for point in profiles.points(part.profile, workload):
                    if harness.unserved(variant, point):
                        continue
                    todo = sum((part.name, variant.id, workload, point.label, t) not in done
                               for t in range(1, settings.trials + 1))
                    left.update({Kind(part.name, point.connections, True): min(todo, 1),
                                 Kind(part.name, point.connections, False): max(todo - 1, 0)})
                if profiles.needs_capacity(part.profile, workload):
                    steps = part.profile.rate_sweep.steps
                    for connections in part.profile.connections:
                        left.update({Kind(part.name, connections, True): steps,
                                     Kind(part.name, connections, False): steps * (settings.trials - 1)})
    return +left


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp).timestamp()


def costs_of(lines: list[dict]) -> dict[Kind, list[float]]:
    """What each kind of trial cost in a finished run, from its trial lines' times: the time since the line
    before it in the same session (a session's first trial has no such line, so no cost)."""
    costs: dict[Kind, list[float]] = defaultdict(list)
    started: set[tuple] = set()
    last: dict[int, float] = {}
    for line in sorted((t for t in lines if t["kind"] == "trial"), key=lambda t: _seconds(t["time"])):
        session, at = line.get("session", 0), _seconds(line["time"])
        point = (session, line["part"], line["framework"], line["workload"], line["point"])
        kind = Kind(line["part"], line["connections"], point not in started)
        started.add(point)
        if session in last:
            costs[kind].append(at - last[session])
        last[session] = at
    return dict(costs)


def previous_costs(runs: Path, suite: str, current: Path) -> dict[Kind, list[float]]:
    """The costs of the newest other run of `suite` under `runs` that recorded trials; {} when there is none."""
    for path in sorted(runs.glob(f"*-{suite}*"), reverse=True):
        name = path.name.split("-", 1)[-1]
        stem, _, number = name.rpartition("-")
        if path == current or not (name == suite or (stem == suite and number.isdigit())):
            continue
        try:
            found = costs_of(RunDir(path).lines())
        except (ResultsError, KeyError, ValueError):
            continue  # a run directory this version cannot read tells nothing of costs
        if found:
            return found
    return {}
