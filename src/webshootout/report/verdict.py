"""The verdict of an A/B: per workload and load point, B/A of throughput, p99 latency and CPU per request
over trials paired in time, each with its bootstrap interval, a three-way answer and the smallest
difference the trials run could have found.

The intervals are wide enough for the whole verdict: three ratios are read at up to `looks` points of
the run (ab stops early once all are decided), so each interval has confidence 1 - 5 % / (3 x looks)
(Bonferroni) and the chance that an A/A run calls any difference stays below 5 %. At such levels and a
few pairs the percentile bootstrap cannot be used (its tails are a handful of resamples, and it is too
narrow with under 20 pairs: an A/A simulation called a difference in 3 of 20 runs), so the interval is
the bootstrap's standard error of the median log ratio times Student's t at n - 1 degrees of freedom,
widened by sqrt(n / (n - 1)) for the bootstrap's own bias at small n.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from . import stats

FAMILY_ERROR = 0.05
POWER = 0.8  # of the minimum detectable difference

# name, what a trial line holds it as, whether a higher B/A is better, the words for better and worse
METRICS = (("throughput", True, "faster", "slower"),
           ("p99", False, "faster", "slower"),
           ("cpu_per_request", False, "cheaper", "costlier"))
SAME = "no difference"


def value(metric: str, trial: dict) -> float | None:
    """A trial line's value of the metric; None where it was not measured."""
    if metric == "throughput":
        return trial["rps"]
    if metric == "p99":
        return trial["latency_us"].get("p99")
    # CPU-seconds of the server per request: 100 % of a CPU for a second is one CPU-second.
    return trial["server_cpu_percent"] / 100 / trial["rps"] if trial["rps"] else None


def confidence(looks: int) -> float:
    return 1 - FAMILY_ERROR / (len(METRICS) * looks)


@dataclass(frozen=True)
class Ratio:
    metric: str
    ratio: float  # the median of B/A over the pairs
    low: float
    high: float
    answer: str  # the better word, the worse word, or SAME
    worse: bool  # B is worse than A (its interval wholly on the worse side of 1)
    mdd_percent: float  # the smallest true difference found with POWER probability at these trials
    decided: bool  # the interval excludes 1 or lies inside +-threshold

    @property
    def within_percent(self) -> float:
        """How far from 1 the interval reaches: "no difference larger than" this."""
        return 100 * max(1 - self.low, self.high - 1)

    def words(self) -> str:
        if self.answer == SAME:
            return f"{SAME}, within ±{self.within_percent:.1f} %"
        return f"{self.answer} by {100 * abs(self.ratio - 1):.1f} %"

    def to_dict(self) -> dict:
        return {"metric": self.metric, "ratio": round(self.ratio, 4), "interval": [round(self.low, 4),
                round(self.high, 4)], "answer": self.answer, "words": self.words(), "worse": self.worse,
                "mdd_percent": round(self.mdd_percent, 2), "decided": self.decided}


def _t_density(x: float, df: int) -> float:
    return math.exp(math.lgamma((df + 1) / 2) - math.lgamma(df / 2)) / math.sqrt(df * math.pi) * \
        (1 + x * x / df) ** (-(df + 1) / 2)


def _t_cdf(x: float, df: int, steps: int = 400) -> float:
    """P(T <= x) for x >= 0: one half plus Simpson's rule over the density from 0 to x."""
    h = x / steps
    total = _t_density(0, df) + _t_density(x, df)
    total += sum((4 if i % 2 else 2) * _t_density(i * h, df) for i in range(1, steps))
    return 0.5 + total * h / 3


def t_quantile(p: float, df: int) -> float:
    """Student's t quantile for p >= 0.5 (bisection: the standard library has only the normal's)."""
    low, high = 0.0, 1.0
    while _t_cdf(high, df) < p:
        low, high = high, 2 * high
    for _ in range(50):
        mid = (low + high) / 2
        low, high = (mid, high) if _t_cdf(mid, df) < p else (low, mid)
    return (low + high) / 2


def ratio(metric: str, pairs: list[tuple[float, float]], threshold: float, looks: int) -> Ratio:
    """B/A of (A, B) pairs; `threshold` a fraction (0.02 = 2 %)."""
    _, higher_better, better, worse_word = next(m for m in METRICS if m[0] == metric)
    level, n = confidence(looks), len(pairs)
    mean, error = stats.paired_log_ratio(pairs)
    error *= math.sqrt(n / (n - 1))
    reach = t_quantile(1 - (1 - level) / 2, n - 1) * error
    centre, low, high = math.exp(mean), math.exp(mean - reach), math.exp(mean + reach)
    mdd = 100 * (math.exp(reach + t_quantile(POWER, n - 1) * error) - 1)
    if low > 1 or high < 1:
        up = low > 1
        answer, is_worse = (better, False) if up == higher_better else (worse_word, True)
    else:
        answer, is_worse = SAME, False
    decided = answer != SAME or (1 - threshold <= low and high <= 1 + threshold)
    return Ratio(metric, centre, low, high, answer, is_worse, mdd, decided)


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


def row(a_trials: list[dict], b_trials: list[dict], threshold: float, looks: int) -> list[Ratio]:
    """The ratios of one workload and point that have at least two pairs."""
    found = []
    for metric, *_ in METRICS:
        pairs = pairs_of(a_trials, b_trials, metric)
        if len(pairs) >= 2:
            found.append(ratio(metric, pairs, threshold, looks))
    return found


def regressed(ratios: list[Ratio], threshold: float) -> list[Ratio]:
    """The ratios where B is worse than A by more than the threshold, beyond doubt."""
    return [r for r in ratios if r.worse and abs(r.ratio - 1) > threshold]
