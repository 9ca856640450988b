"""compare on two fixture runs: alpha is 20 % faster in candidate/, beta and gamma changed only by noise."""

from pathlib import Path

from webshootout import cli
from webshootout.report import compare, summary
from webshootout.results.rundir import RunDir

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"


def _summary(name: str) -> dict:
    rundir = RunDir(RUNS / name)
    return summary.summarize(rundir.read_meta(), rundir.lines())


def test_a_20_percent_gain_is_flagged_and_noise_is_not():
    result = compare.compare(_summary("baseline"), _summary("candidate"), "A", "B")
    verdicts = {(r["framework"], r["workload"], r["load"]): r["verdict"] for r in result["rows"]}
    assert len(verdicts) == 13
    for (framework, _, _), verdict in verdicts.items():
        assert verdict == ("faster" if framework == "alpha" else "no significant change")
    for row in result["rows"]:
        if row["framework"] == "alpha":
            assert 1.17 < row["ratio"] < 1.23 and row["interval"][0] > 1
        else:
            assert row["interval"][0] <= 1 <= row["interval"][1]
    assert result["only"] == []


def test_the_footer_says_how_often_ranges_of_three_miss_by_chance():
    result = compare.compare(_summary("baseline"), _summary("candidate"), "A", "B")
    text = compare.render_terminal(result)
    assert "With 3 and 3 trials the interval is min(B)/max(A) to max(B)/min(A)" in text
    assert "by chance 10 % of the time" in text and "95% CI" not in text


def test_reversed_runs_say_slower():
    result = compare.compare(_summary("candidate"), _summary("baseline"), "A", "B")
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
    assert any(line.split()[:3] == ["plaintext", "c=64", "alpha"] and "faster" in line for line in out.splitlines())
    assert cli.main(["compare", a, b, "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# webshootout compare") and "| json | c=64 | alpha |" in out
    assert cli.main(["compare", a, b, "--format", "html"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("<!DOCTYPE html>") and out.count('class="bar"') == 13
