"""What `ab` can tell on this machine (`shootout ab ID ID --calibrate`), from an A/A run and an A/B run whose
B is the same server held to 97 % of its CPUs: per row, what each run answered, and from the A/A pairs' own
spread the design's false alarms and power (the pairs resampled through the design) and the smallest change
one row decides in 5 and 15 minutes (the interval's width extrapolated as 1 / sqrt(pairs)).
"""

from __future__ import annotations

import math
import random
import statistics

from . import ranks, sequential, verdict
from .terminal import table

RESAMPLED_RUNS = 400
SEED = 20261127
TARGET = 0.03  # the slowdown the power is quoted for: what issue 49 asks `ab` to find
MINUTES = (5, 15)


def log_ratios(row: dict) -> list[float]:
    """The throughput log ratios of an ab.json row's pairs, in trial order."""
    by = {(t["side"], t["trial"]): t["rps"] for t in row["trials"]}
    numbers = sorted(n for side, n in by if side == "A" and ("B", n) in by)
    return [math.log(by[("B", n)] / by[("A", n)]) for n in numbers if by[("A", n)] and by[("B", n)]]


def resampled(diffs: list[float], plan: verdict.Plan, shift: float, runs: int = RESAMPLED_RUNS) -> tuple[float, float]:
    """The shares of runs called slower and called faster when pairs are drawn from `diffs` (centred on their
    estimate) moved by the log ratio `shift`, judged at the design's looks as `ab` judges a row."""
    centre = ranks.paired(diffs, 0.5).estimate
    pool = [d - centre + shift for d in diffs]
    rng = random.Random(SEED)
    slower = faster = 0
    for _ in range(runs):
        drawn: list[float] = []
        for look, n in enumerate(plan.design.looks):
            drawn += rng.choices(pool, k=n - len(drawn))
            found = verdict.ratio("throughput", [(1.0, math.exp(d)) for d in drawn], plan, look)
            if found.decided:
                slower += found.answer == "slower"
                faster += found.answer == "faster"
                break
    return slower / runs, faster / runs


def smallest(diffs: list[float], pairs: int, threshold: float) -> float | None:
    """The change one row of `pairs` pairs finds 80 % of the time at this spread: (c + z(80 %)) x the
    estimate's spread at that many pairs, c the last look's boundary of a one-row design; None when the
    A/A pairs are too few to give an interval at all."""
    level = 0.05  # a single look's: only the spread per pair is read from it
    shift = ranks.paired(diffs, level)
    if not shift.bounded:
        return None
    per_pair = (shift.high - shift.low) / 2 / verdict.two_sided_z(level) * math.sqrt(len(diffs))
    design = verdict.plan(1, sequential.schedule(pairs), threshold).design
    c = verdict.two_sided_z(design.levels[-1])
    return 100 * (math.exp((c + verdict.power_z()) * per_pair / math.sqrt(pairs)) - 1)


def expected_ratio(row: dict, quota_cpus: float) -> float | None:
    """B/A of a server that keeps its CPUs busy, held to `quota_cpus`: A's CPU use over the quota's, at most 1."""
    used = [t["server_cpu_percent"] / 100 for t in row["trials"] if t["side"] == "A"]
    return min(1.0, quota_cpus / statistics.median(used)) if used else None


def summary(aa: dict, quota: dict, seconds_per_pair: float, quota_cpus: float) -> dict:
    """calibrate.json: per row both answers, the resampled rates and the smallest change in 5 and 15 minutes."""
    plan = verdict.plan(len(aa["rows"]), tuple(aa["design"]["looks"]), aa["threshold_percent"] / 100)
    rows = []
    for before, after in zip(aa["rows"], quota["rows"]):
        diffs = log_ratios(before)
        alarms = resampled(diffs, plan, 0.0) if len(diffs) >= 2 else None
        power = resampled(diffs, plan, math.log(1 - TARGET)) if len(diffs) >= 2 else None
        within = {m: (smallest(diffs, max(2, int(60 * m / seconds_per_pair)), plan.threshold) if len(diffs) >= 2
                      else None) for m in MINUTES}
        answer = {r["metric"]: r for r in before["ratios"]}.get("throughput")
        found = {r["metric"]: r for r in after["ratios"]}.get("throughput")
        rows.append({"workload": before["workload"], "point": before["point"], "aa_pairs": before["pairs"],
                     "aa": answer and answer["words"], "aa_called": bool(answer and answer["decided"]
                                                                           and answer["answer"] != verdict.SAME),
                     "quota_pairs": after["pairs"], "quota": found and found["words"],
                     "quota_slower": bool(found and found["answer"] == "slower"),
                     "expected_ratio": expected_ratio(after, quota_cpus),
                     "false_alarms": None if alarms is None else sum(alarms), "power": power and power[0],
                     "smallest_percent": {str(m): v for m, v in within.items()}})
    return {"schema": 1, "seconds_per_pair": round(seconds_per_pair, 2), "quota_cpus": quota_cpus,
            "target_percent": 100 * TARGET, "resampled_runs": RESAMPLED_RUNS, "rows": rows}


def _percent(value: float | None, digits: int = 1) -> str:
    return "-" if value is None else f"{100 * value:.{digits}f} %"


def render(found: dict) -> str:
    header = ("workload", "load", "A/A", "quota", "expected B/A", "false alarms*", f"power at -{found['target_percent']:g} %*",
              *(f"smallest in {m} min" for m in MINUTES))
    cells = [(r["workload"], r["point"], f"{r['aa_pairs']} pairs: {r['aa']}", f"{r['quota_pairs']} pairs: {r['quota']}",
              "-" if r["expected_ratio"] is None else f"{r['expected_ratio']:.3f}", _percent(r["false_alarms"]),
              _percent(r["power"], 0),
              *("-" if r["smallest_percent"][str(m)] is None else f"{r['smallest_percent'][str(m)]:.1f} %"
                for m in MINUTES)) for r in found["rows"]]
    called = sum(r["aa_called"] for r in found["rows"])
    slower = sum(r["quota_slower"] for r in found["rows"])
    n = len(found["rows"])
    return "\n".join([
        table(header, cells, {0, 1, 2, 3}),
        f"false alarms: the A/A run called {called} of {n} rows different; power: the A/B run with B held to "
        f"{found['quota_cpus']:g} CPUs found {slower} of {n} rows slower (expected B/A: A's CPU use over the quota).",
        f"* the row's A/A pairs drawn {found['resampled_runs']} times through ab's design, as they are and moved by "
        f"-{found['target_percent']:g} %; smallest: the change one row finds 80 % of the time in that many minutes "
        f"of pairs ({found['seconds_per_pair']:g} s a pair here), from the A/A pairs' spread."])
