"""compare on two fixture runs: alpha is 20 % faster in candidate/, beta and gamma changed only by noise."""

import copy
import random
from pathlib import Path

import pytest

from webshootout import cli
from webshootout.report import compare, summary
from webshootout.results.rundir import RunDir

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _summary(name: str) -> dict:
    rundir = RunDir(RUNS / name)
    return summary.summarize(rundir.read_meta(), rundir.lines())


def test_three_trials_a_side_call_no_change_and_the_footer_says_why():
    # alpha is 20 % faster in candidate/, but 3 and 3 trials have no 95 % interval: their min-max ranges miss
    # each other by chance 10 % of the time, which is what an A/A compare used to call.
    result = compare.compare(_summary("baseline"), _summary("candidate"), "A", "B")
    assert len(result["rows"]) == 13 and {r["verdict"] for r in result["rows"]} == {compare.TOO_FEW}
    assert all(r["interval"] is None for r in result["rows"])
    alpha = next(r for r in result["rows"] if r["framework"] == "alpha")
    assert 1.17 < alpha["ratio"] < 1.23
    text = compare.render_terminal(result)
    assert "With 3 and 3 trials no 95 % interval exists" in text and "by chance 10 % of the time" in text
    assert result["only"] == []


def test_a_20_percent_gain_is_called_with_five_trials_and_noise_is_not():
    before = [100.0, 101.0, 99.0, 102.0, 98.5]
    ratio, interval, verdict = compare.change(before, [1.2 * v for v in reversed(before)])
    assert ratio == pytest.approx(1.2) and interval[0] > 1.15 and verdict == "faster"
    ratio, interval, verdict = compare.change(before, [101.0, 98.0, 104.0, 99.5, 100.5])
    assert interval[0] < 1 < interval[1] and verdict == compare.SAME
    assert compare.change([1.2 * v for v in before], before)[2] == "slower"


def test_an_a_a_compare_calls_about_one_row_in_twenty():
    rng = random.Random(3)
    called = sum(compare.change([rng.gauss(100, 5) for _ in range(5)], [rng.gauss(100, 5) for _ in range(5)])[2]
                 != compare.SAME for _ in range(2000))
    assert called / 2000 <= 0.05, called  # 3.2 % at most at 5 and 5 trials (the exact interval's own level)


def test_reversed_runs_say_slower():
    a, b = _summary("candidate"), _summary("baseline")
    for run in (a, b):  # five trials a side: a 95 % interval exists
        for row in (r for w in run["workloads"] for p in w["points"] for r in p["results"]):
            row["rps"]["per_trial"] += row["rps"]["per_trial"][:2]
    result = compare.compare(a, b, "A", "B")
    assert {r["verdict"] for r in result["rows"] if r["framework"] == "alpha"} == {"slower"}


def test_results_missing_from_one_run_are_listed():
    b = _summary("candidate")
    b["workloads"] = b["workloads"][:1]
    result = compare.compare(_summary("baseline"), b, "A", "B")
    burst = "json burst 16>256>16 x 2s"
    assert {o["what"] for o in result["only"]} == {"json c=64 alpha", "json c=64 beta", f"{burst} alpha",
                                                   f"{burst} beta"}


def test_compare_command_formats(capsys):
    a, b = str(RUNS / "baseline"), str(RUNS / "candidate")
    assert cli.main(["compare", a, b]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:3] == ["plaintext", "c=64", "alpha"] and "too few trials" in line
               for line in out.splitlines())
    assert cli.main(["compare", a, b, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# webshootout compare") and "| json | c=64 | alpha |" in out
    assert cli.main(["compare", a, b, "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.count('class="bar"') == 13


def _scaled(run: dict, factor) -> dict:
    """The run with each row's req/s (trials, median, interval) times factor(framework)."""
    out = copy.deepcopy(run)
    for row in (r for w in out["workloads"] for p in w["points"] for r in p["results"]):
        k = factor(row["framework"])
        row["rps"]["per_trial"] = [v * k for v in row["rps"]["per_trial"]] * 2  # 6 trials: an interval exists
        row["rps"]["median"] *= k
        row["ranking"].update(value=row["ranking"]["value"] * k, low=row["ranking"]["low"] * k,
                              high=row["ranking"]["high"] * k)
    return out


def test_a_machine_that_slowed_between_the_runs_is_taken_out_and_a_stacks_own_change_stays():
    a = _scaled(_summary("baseline"), lambda name: 1.0)
    b = _scaled(a, lambda name: 0.93 * (1.2 if name == "alpha" else 1.0))
    b["run"] = {**b["run"], "machine_speed": {"median": 50.0, "min": 40.0, "max": 60.0, "probes": 10}}
    result = compare.compare(a, b, "A", "B")
    assert result["common_shift"] == pytest.approx(0.93)
    assert {r["framework"] for r in result["rows"] if r["verdict"] != compare.SAME} == {"alpha"}
    assert {r["verdict"] for r in result["rows"] if r["framework"] == "alpha"} == {"faster"}
    alpha = next(r for r in result["rows"] if r["framework"] == "alpha")
    assert alpha["ratio"] == pytest.approx(1.2) and alpha["b_rps"] == pytest.approx(0.93 * 1.2 * alpha["a_rps"], rel=0.01)
    assert "divided by 0.930, the median B/A of all 13 rows" in compare.render_terminal(result)


def test_too_few_rows_for_a_common_shift_compare_as_measured():
    a = _scaled(_summary("baseline"), lambda name: 1.0)
    a["workloads"] = a["workloads"][:1]
    result = compare.compare(a, _scaled(a, lambda name: 0.9), "A", "B")
    assert result["common_shift"] is None and {r["verdict"] for r in result["rows"]} == {"slower"}
