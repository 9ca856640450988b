"""Pure statistics over trials: centre, spread, intervals of the median, ties, efficiency, merged latency
(the ratios of ab and compare: report/ranks.py).

Nothing here reads files, clocks or random numbers, so every number a report shows can be recomputed
exactly from results.jsonl.
"""

from __future__ import annotations

import math
import statistics
from collections import Counter
from dataclasses import dataclass

CONFIDENCE = 0.95


def median(values: list[float]) -> float:
    return statistics.median(values)


def cv(values: list[float]) -> float:
    """Coefficient of variation (sample stdev / mean); 0 for fewer than two values."""
    if len(values) < 2:
        return 0.0
    mean = statistics.fmean(values)
    return statistics.stdev(values) / mean if mean else 0.0


def two_groups(values: list[float], apart: float) -> tuple[list[float], list[float]] | None:
    """The values split at their widest gap, when that gap is over `apart` of their median and each side holds
    at least two: trials taken in two states of the machine, which one interval over all of them hides."""
    ordered = sorted(values)
    if len(ordered) < 4 or median(ordered) <= 0:
        return None
    cut = max(range(2, len(ordered) - 1), key=lambda i: ordered[i] - ordered[i - 1])
    if ordered[cut] - ordered[cut - 1] <= apart * median(ordered):
        return None
    return ordered[:cut], ordered[cut:]


@dataclass(frozen=True)
class Interval:
    """Where the true median of a result lies: a confidence interval, or just the range of the trials.

    `coverage` is the probability that such an interval contains the true median, whatever the
    distribution of the trials (they only need to be independent and identically distributed)."""

    low: float
    high: float
    kind: str  # "ci": coverage >= the confidence asked for; "range": min-max, too few trials for that
    coverage: float


def _covered(n: int, k: int) -> float:
    """Probability that [x(k), x(n+1-k)] (order statistics, 1-based) contains the median: the median
    escapes only when fewer than k of the n values fall on one side of it, a Binomial(n, 1/2) tail."""
    tail = sum(math.comb(n, i) for i in range(k)) / 2 ** n
    return 1 - 2 * tail


def median_interval(values: list[float], confidence: float = CONFIDENCE) -> Interval:
    """The narrowest order-statistic (distribution-free) interval of the median with at least
    `confidence` coverage; with too few values for that (fewer than 6 at 95 %), the min-max range,
    whose own coverage is 1 - 2^(1-n): 75 % for 3 trials, 94 % for 5."""
    if not values:
        raise ValueError("median_interval of no values")
    ordered, n = sorted(values), len(values)
    k = 1
    while k + 1 <= (n + 1) // 2 and _covered(n, k + 1) >= confidence:
        k += 1
    coverage = _covered(n, k)
    kind = "ci" if coverage >= confidence else "range"
    return Interval(ordered[k - 1], ordered[n - k], kind, coverage)


def separation_chance(n_a: int, n_b: int) -> float:
    """Probability that the min-max ranges of n_a and n_b trials from one continuous distribution do not
    overlap: all of one side below all of the other, 2 orderings of C(n_a + n_b, n_a)."""
    return 2 / math.comb(n_a + n_b, n_a)


@dataclass(frozen=True)
class Ranked:
    name: str
    rank: int  # 1-based competition rank of its tie group
    tied: bool  # shares the rank with another entry

    @property
    def label(self) -> str:
        return ("=" if self.tied else "") + ordinal(self.rank)


def ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def rank_with_ties(entries: list[tuple[str, float, float, float]], higher_is_better: bool = True) -> list[Ranked]:
    """Ranks (name, centre, low, high) entries, best centre first (the highest, or the lowest for a
    latency).

    A tie group starts at the best entry not yet grouped and takes every following entry whose interval
    reaches that entry's interval. Grouping against the leader, not the previous entry, keeps a long
    chain of small overlaps from tying the first with the last. Ranks count entries ("=1st, =1st, 3rd"),
    as in sport.
    """
    if not higher_is_better:  # mirror the axis: the lowest value becomes the highest
        entries = [(name, -centre, -high, -low) for name, centre, low, high in entries]
    ordered = sorted(entries, key=lambda e: (-e[1], e[0]))
    out: list[Ranked] = []
    i = 0
    while i < len(ordered):
        leader_low = ordered[i][2]
        j = i + 1
        while j < len(ordered) and ordered[j][3] >= leader_low:
            j += 1
        out.extend(Ranked(e[0], i + 1, j - i > 1) for e in ordered[i:j])
        i = j
    return out


def per_cpu_second(rps: float, cpu_percent: float) -> float | None:
    """Requests served per CPU-second of the server (cpu_percent: 100 = one CPU busy)."""
    return rps / (cpu_percent / 100) if cpu_percent > 0 else None


def per_mb(rps: float, rss_mb: float) -> float | None:
    return rps / rss_mb if rss_mb > 0 else None


def merge_histograms(histograms: list[list[list[float]]]) -> list[tuple[float, int]]:
    """Sums [value, count] buckets across trials: exact, because every trial uses the same buckets."""
    total: Counter = Counter()
    for histogram in histograms:
        for value, count in histogram:
            total[value] += int(count)
    return sorted((value, count) for value, count in total.items() if count)


def histogram_percentile(buckets: list[tuple[float, int]], percent: float) -> float:
    """The smallest recorded value with at least `percent` % of all counts at or below it (HDR's rule)."""
    total = sum(count for _, count in buckets)
    if not total:
        raise ValueError("percentile of an empty histogram")
    wanted = max(1, math.ceil(percent / 100 * total))
    seen = 0
    for value, count in buckets:
        seen += count
        if seen >= wanted:
            return value
    return buckets[-1][0]


def histogram_mean(buckets: list[tuple[float, int]]) -> float:
    total = sum(count for _, count in buckets)
    return sum(value * count for value, count in buckets) / total
