"""How well a second run lands on a first: the figures that tell whether `run` repeats itself (issue 30).

Read on two runs of one commit on one machine, they say how far a reported interval can be trusted: the
rows whose two intervals miss each other, the share of the second run's medians inside the first run's
interval, and the pairs of stacks that both runs call different (disjoint intervals) but in opposite order.
Only closed-loop rows ranked on req/s count; a row must be in both runs. Beside the share inside, the
median width of each run's intervals: any honest interval covers its ~83 % however wide it is, so the
coverage says the intervals are honest and the width how much they say.
"""

from __future__ import annotations

import statistics
from itertools import combinations


def _rows(summary: dict) -> dict[tuple, dict]:
    return {(w["workload"], p["label"], r["framework"]): r["ranking"]
            for w in summary["workloads"] for p in w["points"] for r in p["results"]
            if r["ranking"]["metric"] == "rps" and r["ranking"]["value"] is not None}


def _disjoint(x: dict, y: dict) -> bool:
    return x["high"] < y["low"] or y["high"] < x["low"]


def _order(x: dict, y: dict) -> int:
    """+1 when x is called faster than y, -1 slower, 0 when their intervals overlap."""
    if not _disjoint(x, y):
        return 0
    return 1 if x["low"] > y["high"] else -1


def consistency(a: dict, b: dict) -> dict:
    left, right = _rows(a), _rows(b)
    keys = sorted(k for k in left if k in right)
    disjoint = [" ".join(k) for k in keys if _disjoint(left[k], right[k])]
    inside = sum(left[k]["low"] <= right[k]["value"] <= left[k]["high"] for k in keys)
    called = opposite = 0
    groups: dict[tuple, list[str]] = {}
    for workload, label, framework in keys:
        groups.setdefault((workload, label), []).append(framework)
    for (workload, label), frameworks in groups.items():
        for x, y in combinations(frameworks, 2):
            kx, ky = (workload, label, x), (workload, label, y)
            first, second = _order(left[kx], left[ky]), _order(right[kx], right[ky])
            if first and second:
                called += 1
                opposite += first != second
    return {"rows": len(keys), "disjoint": disjoint, "inside": inside, "pairs_called": called,
            "pairs_opposite": opposite, "width_percent": [_width(left, keys), _width(right, keys)]}


def _width(rows: dict[tuple, dict], keys: list[tuple]) -> float | None:
    """The median over the rows of their interval's width, in percent of their median."""
    widths = [100 * (rows[k]["high"] - rows[k]["low"]) / rows[k]["value"] for k in keys if rows[k]["value"]]
    return round(statistics.median(widths), 1) if widths else None


def describe(found: dict) -> str:
    n = found["rows"]
    if not n:
        return "no closed-loop row is in both runs"
    width_a, width_b = found["width_percent"]
    return (f"if both runs measured one commit: {len(found['disjoint'])} of {n} rows have intervals that miss "
            f"each other; {found['inside']} of {n} ({found['inside'] / n:.0%}) of B's medians lie inside A's "
            f"interval, whose median width is {width_a:g} % of the median (B's: {width_b:g} %); of "
            f"{found['pairs_called']} pairs of frameworks both runs call different, {found['pairs_opposite']} in "
            f"opposite order")
