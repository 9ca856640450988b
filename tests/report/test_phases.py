import math
import random

from webshootout.report import phases


def trial(workload: str, framework: str, n: int, rps: float, round_trip_ns: float, profile: str = "closed") -> dict:
    return {"workload": workload, "framework": framework, "part": "p", "point": "c=64", "trial": n,
            "profile": profile, "rps": rps, "cpu_link": {"before_ns": round_trip_ns, "after_ns": round_trip_ns}}


def run(workload: str, follows: float, seed: int, frameworks: int = 6, trials: int = 5) -> list[dict]:
    """Trials whose req/s follow the round trip with slope `follows` (in logs) on top of 2 % noise of their own."""
    rng = random.Random(seed)
    out = []
    for f in range(frameworks):
        base = 10_000 * (f + 1)
        for n in range(1, trials + 1):
            trip = rng.uniform(100, 400)
            out.append(trial(workload, f"fw{f}", n, base * (trip / 200) ** follows * math.exp(rng.gauss(0, 0.02)), trip))
    return out


def spread(trials: list[dict], framework: str) -> float:
    values = [t["rps"] for t in trials if t["framework"] == framework]
    return (max(values) - min(values)) / min(values)


def test_a_workload_that_follows_the_link_is_moved_to_the_runs_median_round_trip():
    trials = run("json", -0.3, seed=1)
    adjusted, (slope,) = phases.adjusted(trials)
    assert slope.used and -0.35 < slope.slope < -0.25 and slope.removed > 0.5
    assert all(t["rps_measured"] == raw["rps"] for t, raw in zip(adjusted, trials))
    assert spread(adjusted, "fw0") < spread(trials, "fw0") / 3


def test_a_workload_the_link_does_not_explain_keeps_its_measured_values():
    trials = run("db", 0.0, seed=2)
    adjusted, (slope,) = phases.adjusted(trials)
    assert not slope.used and slope.removed < phases.MIN_GAIN
    assert adjusted == trials


def test_each_workload_gets_its_own_slope_and_open_loop_trials_stay_as_measured():
    trials = run("json", -0.3, seed=3) + run("db", 0.0, seed=4)
    trials.append(trial("json", "fw0", 9, 5_000, 400, profile="open"))
    adjusted, slopes = phases.adjusted(trials)
    assert [(s.workload, s.used) for s in slopes] == [("db", False), ("json", True)]
    assert adjusted[-1] == trials[-1]


def test_too_few_rows_or_no_link_adjust_nothing():
    few = run("json", -0.5, seed=5, frameworks=2)
    adjusted, (slope,) = phases.adjusted(few)
    assert not slope.used and adjusted == few
    unlinked = [{**t, "cpu_link": None} for t in run("json", -0.5, seed=6)]
    assert phases.adjusted(unlinked) == (unlinked, [])


def test_an_ab_row_is_moved_when_one_sides_slope_predicts_the_others():
    trials = run("json", -0.3, seed=7, frameworks=2, trials=16)
    a, b = [t for t in trials if t["framework"] == "fw0"], [t for t in trials if t["framework"] == "fw1"]
    moved_a, moved_b = phases.sides(a, b)
    assert spread(moved_a, "fw0") < spread(a, "fw0") / 3 and spread(moved_b, "fw1") < spread(b, "fw1") / 3
    unrelated = run("json", 0.0, seed=8, frameworks=2, trials=16)
    a, b = [t for t in unrelated if t["framework"] == "fw0"], [t for t in unrelated if t["framework"] == "fw1"]
    assert phases.sides(a, b) == (a, b)
