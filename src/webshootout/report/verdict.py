"""The verdict of an A/B: per workload and load point, B/A of throughput (moved to the row's median CPU round
trip where its trials show that pays: report/phases.py), p99 latency and CPU per request over trials paired
in time, each the Hodges-Lehmann estimate of the pairs' log ratios with its exact signed-rank interval
(report/ranks.py) at the level of the look it was read at (report/sequential.py), and one of four answers
for the interval [low, high] of B/A and the threshold t:

- inside [1 - t, 1 + t]: no difference (decided);
- otherwise wholly on the worse side of 1: slower (costlier for CPU); on the better side: faster (cheaper);
- otherwise, holding 1 and reaching past the threshold: inconclusive, with the pairs (or the steadier
  trials) it would take to decide.

The metrics that gate (throughput, and p99 or CPU per request when asked) share the family error: each
ratio's design allows 5 % / (rows x gating metrics) over all its looks, so an A/A run calls any difference
in at most 5 % of runs and exits 1 in at most 2.5 %. A metric that does not gate is read at the same levels,
neither stops a row nor sets the exit status.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from . import phases, ranks, sequential

FAMILY_ERROR = 0.05
POWER = 0.8  # "detectable": the difference found this often

# name, whether a higher B/A is better, the words for better and worse
METRICS = (("throughput", True, "faster", "slower"),
           ("p99", False, "faster", "slower"),
           ("cpu_per_request", False, "cheaper", "costlier"))
GATE_NAMES = {"p99": "p99", "cpu": "cpu_per_request"}  # --gate's names
SAME = "no difference"
UNDECIDED = "inconclusive"
# Exit statuses: a gating ratio slower or costlier; one still inconclusive; every one decided and none worse.
WORSE_EXIT, UNDECIDED_EXIT, DECIDED_EXIT = 1, 3, 0


@dataclass(frozen=True)
class Plan:
    """What a verdict is read against: the threshold (a fraction), the gating metrics and the design."""

    threshold: float
    gates: tuple[str, ...]
    design: sequential.Design


def plan(rows: int, looks: tuple[int, ...], threshold: float, gates: tuple[str, ...] = ("throughput",)) -> Plan:
    """The family error split over every gating ratio (Bonferroni over rows and metrics)."""
    return Plan(threshold, gates, sequential.Design(looks, FAMILY_ERROR / (max(rows, 1) * len(gates))))


def value(metric: str, trial: dict) -> float | None:
    """A trial line's value of the metric; None where it was not measured."""
    if metric == "throughput":
        return trial["rps"]
    if metric == "p99":
        return trial["latency_us"].get("p99")
    # CPU-seconds of the server per request: 100 % of a CPU for a second is one CPU-second (of what it served,
    # not the link-adjusted req/s).
    rps = trial.get("rps_measured", trial["rps"])
    return trial["server_cpu_percent"] / 100 / rps if rps else None


def _signed(low: float, high: float) -> str:
    """B/A's interval as changes: "-4.1 to +1.2 %"."""
    return f"{100 * (low - 1):+.1f} to {100 * (high - 1):+.1f} %"


@dataclass(frozen=True)
class Ratio:
    metric: str
    ratio: float  # B/A: exp of the Hodges-Lehmann estimate of the pairs' log ratios
    low: float  # 0 and inf: too few pairs for an interval at this look's level
    high: float
    answer: str  # the better word, the worse word, SAME or UNDECIDED
    worse: bool  # B is worse than A: the interval wholly on the worse side of 1 and not inside the threshold
    gating: bool
    confidence: float  # the nominal level of this look's interval
    pairs: int
    mdd_percent: float | None  # the true difference these pairs find 80 % of the time
    needed: int | None  # inconclusive: about how many pairs would decide it at this spread
    steadier: float | None  # inconclusive: or how many times steadier the trials would have to be

    @property
    def decided(self) -> bool:
        return self.answer != UNDECIDED

    def words(self) -> str:
        if self.answer == SAME:
            return f"{SAME} ({_signed(self.low, self.high)})"
        if self.answer == UNDECIDED:
            if not math.isfinite(self.high):
                return f"{UNDECIDED}: {self.pairs} pairs are too few for an interval at this level"
            more = (f"; about {self.needed} pairs would decide it, or trials {self.steadier:.2f}x as steady"
                    if self.needed else "")
            return f"{UNDECIDED} ({_signed(self.low, self.high)}){more}"
        ends = sorted((100 * abs(self.low - 1), 100 * abs(self.high - 1)))
        return f"{self.answer} by {100 * abs(self.ratio - 1):.1f} % [{ends[0]:.1f}-{ends[1]:.1f} %]"

    def to_dict(self) -> dict:
        bounded = math.isfinite(self.high) and self.low > 0
        return {"metric": self.metric, "ratio": round(self.ratio, 4),
                "interval": [round(self.low, 4), round(self.high, 4)] if bounded else None,
                "answer": self.answer, "words": self.words(), "worse": self.worse, "gating": self.gating,
                "confidence": round(self.confidence, 6), "pairs": self.pairs,
                "mdd_percent": None if self.mdd_percent is None else round(self.mdd_percent, 2),
                "needed_pairs": self.needed, "decided": self.decided}


def _answer(metric: str, low: float, high: float, threshold: float) -> tuple[str, bool]:
    """(answer, worse) for an interval of B/A."""
    _, higher_better, better, worse_word = next(m for m in METRICS if m[0] == metric)
    if 1 - threshold <= low and high <= 1 + threshold:
        return SAME, False
    if high < 1 or low > 1:
        up = low > 1
        return (better, False) if up == higher_better else (worse_word, True)
    return UNDECIDED, False


@lru_cache(maxsize=1024)
def two_sided_z(level: float) -> float:
    """The normal quantile of 1 - level / 2 (cached: a design has few levels, judged many times)."""
    from scipy.stats import norm

    return float(norm.isf(level / 2))


def power_z() -> float:
    """The normal quantile of POWER: how far past the boundary a difference must lie to be found that often."""
    return two_sided_z(2 * (1 - POWER))


def _reach(shift: ranks.Shift, threshold: float, level: float, pairs: int) -> tuple[float | None, int | None,
                                                                                        float | None]:
    """From the interval's half-width in logs, w = z(level) x the estimate's spread: the difference found 80 %
    of the time at these pairs, and for an undecided interval the pairs (its reach from the estimate shrinks as
    1 / sqrt(pairs)) or the steadier trials that would bring that reach under what deciding needs,
    max(threshold - |estimate|, |estimate|)."""
    if not shift.bounded:
        return None, None, None
    z = two_sided_z(level)
    mdd = 100 * (math.exp((shift.high - shift.low) / 2 / z * (z + power_z())) - 1)
    enough = max(math.log1p(threshold) - abs(shift.estimate), abs(shift.estimate))
    reach = max(shift.high - shift.estimate, shift.estimate - shift.low)  # the interval need not be symmetric
    if reach <= enough:
        return mdd, None, None
    return mdd, math.ceil(pairs * (reach / enough) ** 2), reach / enough


def ratio(metric: str, pairs: list[tuple[float, float]], plan_: Plan, look: int) -> Ratio:
    """B/A of (A, B) pairs at the design's look with that index."""
    level = plan_.design.levels[look]
    shift = ranks.paired([math.log(b / a) for a, b in pairs], level)
    low, high = math.exp(shift.low), math.exp(shift.high)
    answer, worse = _answer(metric, low, high, plan_.threshold)
    mdd, needed, steadier = _reach(shift, plan_.threshold, level, len(pairs))
    return Ratio(metric, math.exp(shift.estimate), low, high, answer, worse, metric in plan_.gates, 1 - level,
                 len(pairs), mdd, needed if answer == UNDECIDED else None, steadier if answer == UNDECIDED else None)


def pairs_of(a_trials: list[dict], b_trials: list[dict], metric: str) -> list[tuple[float, float]]:
    """(A, B) of each trial number both sides have, where both measured the metric."""
    b_by = {t["trial"]: t for t in b_trials}
    out = []
    for a in sorted(a_trials, key=lambda t: t["trial"]):
        b = b_by.get(a["trial"])
        if b is None:
            continue
        va, vb = value(metric, a), value(metric, b)
        if va and vb:
            out.append((va, vb))
    return out


def row(a_trials: list[dict], b_trials: list[dict], plan_: Plan) -> list[Ratio]:
    """The ratios of one workload and point, read at the look of its pairs (a row stops at a look)."""
    look = plan_.design.look(min(len(a_trials), len(b_trials)))
    a_trials, b_trials = phases.sides(a_trials, b_trials)
    found = []
    for metric, *_ in METRICS:
        pairs = pairs_of(a_trials, b_trials, metric)
        if pairs:
            found.append(ratio(metric, pairs, plan_, look))
    return found


def decided(ratios: list[Ratio], plan_: Plan) -> bool:
    """Every gating metric has a ratio and each is decided: the row can stop."""
    gating = {r.metric: r for r in ratios if r.gating}
    return set(gating) == set(plan_.gates) and all(r.decided for r in gating.values())


def exit_status(rows: list[list[Ratio]], plan_: Plan) -> int:
    """1 when a gating ratio of some row is worse; else 3 when some row is not decided; else 0."""
    if any(r.worse for ratios in rows for r in ratios if r.gating):
        return WORSE_EXIT
    return DECIDED_EXIT if rows and all(decided(ratios, plan_) for ratios in rows) else UNDECIDED_EXIT
