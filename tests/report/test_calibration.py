"""What --calibrate makes of an A/A and an A/B: the resampled false alarms and power, the smallest change in 5
and 15 minutes, the slowdown a quota should cause."""

import math
from types import SimpleNamespace

from commands.test_ab_simulated import simulate
from webshootout.commands import ab
from webshootout.report import abreport, calibration, verdict

SIDES = [SimpleNamespace(id=f"x.{s}", display=f"X ({s})", version="1", folder="f", start=SimpleNamespace(env=()))
         for s in "ab"]


def _result(seed: int, b_factor: float) -> dict:
    _, rows, _ = simulate(seed, 0.03, b_factor, workloads=("json",))
    plan = verdict.plan(1, ab.looks(ab.MAX_TRIALS), 0.02)
    return abreport.result(SIDES, [(r.workload, "c=64", r.trials["A"], r.trials["B"]) for r in rows], plan,
                           ab.MAX_TRIALS)


def test_a_calibration_reads_both_runs_and_this_machines_spread():
    found = calibration.summary(_result(3, 1.0), _result(4, 0.97), seconds_per_pair=8.0, quota_cpus=0.97)
    (row,) = found["rows"]
    assert row["quota_slower"] and row["quota"].startswith("slower by ")
    assert row["false_alarms"] <= 0.1 and row["power"] >= 0.5, row
    five, fifteen = row["smallest_percent"]["5"], row["smallest_percent"]["15"]
    assert 1 < fifteen < five < 10, row  # three times the pairs: about 1 / sqrt(3) of the change
    assert math.isclose(row["expected_ratio"], 1.0)  # A used 97 % of a CPU: a 97 % quota takes nothing
    text = calibration.render(found)
    assert "false alarms: the A/A run called" in text and "smallest in 15 min" in text


def test_the_log_ratios_of_a_row_pair_trials_by_number():
    row = {"trials": [{"side": "A", "trial": 1, "rps": 100.0}, {"side": "B", "trial": 1, "rps": 110.0},
                      {"side": "A", "trial": 2, "rps": 100.0}]}
    assert calibration.log_ratios(row) == [math.log(1.1)]
