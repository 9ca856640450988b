"""Takes the CPU link's phases out of a run's req/s, per workload, where the run's own trials show it pays.

Every trial records how long a cache line took to travel between the server and load CPUs just before and
after it (system/cpulink.py); the host moves the two CPUs nearer and further apart in phases. Measured on the
quick suite (docs/method.md, *What the phases explain*), that round trip explained half the spread of the json
and websocket rows and a quarter of static's, while the speed probe and the neighbouring trials predicted
nothing a held-out row could use. So each workload's req/s is moved to the run's median link by the slope the
run itself shows: the within-row regression of log req/s on log round trip, pooled over the workload's rows,
and used only where fitting it on all rows but one predicts the row left out better than no adjustment,
by at least MIN_GAIN of its variance. results.jsonl keeps the measured figures; the report says which
workloads it adjusted and by how much.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from dataclasses import dataclass

MIN_ROWS = 3  # rows of a workload with enough trials to fit and check a slope
MIN_TRIALS = 3  # trials a row needs to take part
MIN_GAIN = 0.1  # share of held-out variance the slope must remove to be used


@dataclass(frozen=True)
class Slope:
    workload: str
    slope: float  # d log(req/s) / d log(round trip): about -1 when the round trip is the whole cost
    removed: float  # share of the held-out rows' variance the slope removed (negative: it added some)
    used: bool

    def to_dict(self) -> dict:
        return {"workload": self.workload, "slope": round(self.slope, 3), "variance_removed": round(self.removed, 3),
                "used": self.used}


def _round_trip(trial: dict) -> float | None:
    link = trial.get("cpu_link")
    if not link or not link.get("before_ns") or not link.get("after_ns"):
        return None
    return math.log((link["before_ns"] + link["after_ns"]) / 2)


def _row_key(trial: dict) -> tuple:
    return trial["framework"], trial["part"], trial["point"], trial.get("tls", False), trial.get("http", "1.1")


def _centred(rows: list[list[tuple[float, float]]]) -> list[list[tuple[float, float]]]:
    out = []
    for points in rows:
        mx = statistics.fmean(x for x, _ in points)
        my = statistics.fmean(y for _, y in points)
        out.append([(x - mx, y - my) for x, y in points])
    return out


def _slope(rows: list[list[tuple[float, float]]]) -> float:
    sxx = sum(x * x for points in rows for x, _ in points)
    return sum(x * y for points in rows for x, y in points) / sxx if sxx else 0.0


def fit(workload: str, rows: list[list[tuple[float, float]]], min_rows: int = MIN_ROWS) -> Slope:
    """The pooled slope of (log round trip, log req/s) rows, and whether it predicts each row left out."""
    rows = _centred(rows)
    slope = _slope(rows)
    if len(rows) < min_rows:
        return Slope(workload, slope, 0.0, False)
    raw = left = 0.0
    for i, held in enumerate(rows):
        others = _slope(rows[:i] + rows[i + 1:])
        raw += sum(y * y for _, y in held)
        left += sum((y - others * x) ** 2 for x, y in held)
    removed = 1 - left / raw if raw else 0.0
    return Slope(workload, slope, removed, removed >= MIN_GAIN)


def slopes(trials: list[dict], row_key=_row_key, min_rows: int = MIN_ROWS) -> dict[str, Slope]:
    """Per workload of the run's closed-loop trials, its slope on the round trip."""
    rows: dict[str, dict[tuple, list[tuple[float, float]]]] = defaultdict(lambda: defaultdict(list))
    for t in trials:
        x = _round_trip(t)
        if x is not None and t["profile"] == "closed" and t["rps"] > 0:
            rows[t["workload"]][row_key(t)].append((x, math.log(t["rps"])))
    return {w: fit(w, [p for p in by_row.values() if len(p) >= MIN_TRIALS], min_rows)
            for w, by_row in sorted(rows.items())}


def adjusted(trials: list[dict], row_key=_row_key, min_rows: int = MIN_ROWS) -> tuple[list[dict], list[Slope]]:
    """The trials with `rps` moved to the run's median round trip where their workload's slope is used (the
    measured value kept as `rps_measured`), and every workload's slope. `row_key` says which trials measure
    one thing (a row of `run`, a side of an A/B)."""
    found = slopes(trials, row_key, min_rows)
    trips = [x for x in map(_round_trip, trials) if x is not None]
    if not trips:
        return trials, list(found.values())
    centre = statistics.median(trips)
    out = []
    for t in trials:
        s, x = found.get(t["workload"]), _round_trip(t)
        if s is None or not s.used or x is None or t["profile"] != "closed" or t["rps"] <= 0:
            out.append(t)
            continue
        out.append({**t, "rps": t["rps"] * math.exp(-s.slope * (x - centre)), "rps_measured": t["rps"]})
    return out, list(found.values())


def sides(a_trials: list[dict], b_trials: list[dict]) -> tuple[list[dict], list[dict]]:
    """An A/B row's trials, each side moved to their median round trip when the slope fitted on one side
    predicts the other (the pairs then differ by the servers, less by where the CPUs were)."""
    side = {id(t): "A" for t in a_trials} | {id(t): "B" for t in b_trials}
    moved, _ = adjusted([*a_trials, *b_trials], row_key=lambda t: side[id(t)], min_rows=2)
    return moved[:len(a_trials)], moved[len(a_trials):]
