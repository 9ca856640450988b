"""`shootout ab` without processes: the pairs' order, the stopping rule, the four answers and their exit
statuses, the outputs (the verdict's rates on a simulated machine: test_ab_simulated.py)."""

import json
import re
from pathlib import Path

import jsonschema
import pytest

from commands.test_ab_simulated import simulate
from fakes import FakeDriver, FakeStack
from integration.helpers import make_settings
from webshootout import cli
from webshootout.commands import ab, abcalibrate
from webshootout.config.settings import SettingsError
from webshootout.report import abreport, verdict
from webshootout.stacks import catalog, sides

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "ab.schema.json").read_text())


def test_each_pair_runs_side_by_side_in_an_order_drawn_by_the_seed():
    _, _, order = simulate(0, workloads=("json",), max_trials=16)
    pairs = [order[i:i + 2] for i in range(0, len(order), 2)]
    assert [{(s, n) for _, s, n in pair} for pair in pairs] == [{("A", n), ("B", n)} for n in range(1, 17)]
    firsts = [pair[0][1] for pair in pairs]
    assert 4 <= firsts.count("A") <= 12, firsts  # both orders, by a coin
    assert order == simulate(0, workloads=("json",), max_trials=16)[2], "the same seed, the same order"


def test_looks_start_at_16_pairs_and_include_the_last():
    assert ab.looks(48) == (16, 24, 32, 40, 48)
    assert ab.looks(20) == (16, 20)
    assert ab.looks(4) == (4,)


def test_an_injected_difference_is_found_with_its_sign_and_the_true_ratio_inside_the_interval():
    for seed in range(5):
        code, rows, _ = simulate(seed, b_factor=0.9, workloads=("json",))
        (throughput,) = [r for r in rows[0].ratios if r.metric == "throughput"]
        assert throughput.answer == "slower" and throughput.worse and code == 1
        assert throughput.low <= 0.9 <= throughput.high
        assert throughput.words().startswith("slower by ") and "more than" not in throughput.words()


def test_a_clear_difference_stops_at_the_first_look():
    code, rows, order = simulate(1, b_factor=0.7, workloads=("json",))
    assert code == 1 and rows[0].decided and len(order) == 2 * ab.looks(ab.MAX_TRIALS)[0]


def test_p99_and_cpu_neither_stop_nor_gate_unless_asked():
    # B's p99 is A's / 0.9 (a closed loop), so p99 is slower wherever throughput is.
    _, rows, _ = simulate(2, b_factor=0.9, workloads=("json",))
    p99 = next(r for r in rows[0].ratios if r.metric == "p99")
    assert not p99.gating and next(r for r in rows[0].ratios if r.metric == "throughput").gating
    _, rows, _ = simulate(2, b_factor=0.9, workloads=("json",), gates=("throughput", "p99"))
    assert next(r for r in rows[0].ratios if r.metric == "p99").gating


def _plan(threshold: float = 0.02) -> verdict.Plan:
    return verdict.plan(1, (16,), threshold)


def _pairs(*factors: float) -> list[tuple[float, float]]:
    return [(100.0, 100.0 * f) for f in factors]


def test_the_four_answers_their_words_and_exit_statuses():
    same = verdict.ratio("throughput", _pairs(*[1 + (-1) ** i * 0.001 * (i % 3) for i in range(16)]), _plan(), 0)
    assert same.answer == verdict.SAME and same.decided and same.words().startswith("no difference (-0.")
    noisy = verdict.ratio("throughput", _pairs(*[1 + (-1) ** i * 0.02 * (i % 5) for i in range(16)]), _plan(), 0)
    assert noisy.answer == verdict.UNDECIDED and not noisy.decided and noisy.needed > 16
    assert re.search(r"about \d+ pairs would decide it, or trials \d+\.\d\dx as steady", noisy.words())
    slower = verdict.ratio("throughput", _pairs(*[0.97 + 0.002 * (i % 4) for i in range(16)]), _plan(), 0)
    assert slower.answer == "slower" and slower.worse
    assert re.fullmatch(r"slower by 2\.\d % \[2\.\d-2\.\d %\]", slower.words()), slower.words()
    faster = verdict.ratio("throughput", _pairs(*[1.10 + 0.002 * (i % 4) for i in range(16)]), _plan(), 0)
    assert faster.answer == "faster" and not faster.worse
    # For p99 and CPU per request lower is better: a higher B is worse.
    assert verdict.ratio("p99", _pairs(*[1.10 + 0.002 * (i % 4) for i in range(16)]), _plan(), 0).worse
    # Slower, but by less than the threshold: inside it is no difference.
    small = verdict.ratio("throughput", _pairs(*[0.99 + 0.001 * (i % 4) for i in range(16)]), _plan(), 0)
    assert small.answer == verdict.SAME and not small.worse
    plan = _plan()
    assert verdict.exit_status([[same], [faster]], plan) == 0
    assert verdict.exit_status([[same], [noisy]], plan) == 3, "never 0 on an undecided gating row"
    assert verdict.exit_status([[noisy], [slower]], plan) == 1
    assert verdict.exit_status([[same], []], plan) == 3, "a row without its throughput is undecided"


def test_too_few_pairs_for_the_level_are_inconclusive_not_no_difference():
    found = verdict.ratio("throughput", _pairs(*[1.0] * 8), verdict.plan(2, (8, 16), 0.02), 0)
    assert found.answer == verdict.UNDECIDED and "too few" in found.words()
    assert found.to_dict()["interval"] is None


def test_ab_writes_ab_json_to_its_schema_a_page_and_exits_by_the_verdict(root, tmp_path, capsys):
    everything = catalog.discover(root)
    chosen = sides.sides(everything, "flask", "flask", None, ((), ()), tmp_path / "versions")
    settings = make_settings(root, ("flask",), out=tmp_path, workloads=("plaintext", "json"), warmup=0.0)
    stack = FakeStack()
    code = ab.run(settings, ["ab", "flask", "flask"], chosen, ab.Options(0.02, 8, seed=1), driver=FakeDriver(),
                  stack=stack)
    assert code == 0
    (run_dir,) = list(tmp_path.iterdir())
    result = json.loads((run_dir / "ab.json").read_text())
    jsonschema.validate(result, SCHEMA)
    assert [(r["workload"], r["pairs"], r["decided"]) for r in result["rows"]] == [("plaintext", 8, True),
                                                                                   ("json", 8, True)]
    assert {t["idle_cpu_percent"] for r in result["rows"] for t in r["trials"]} == {0.5}
    assert [e[0] for e in stack.events if e[0] in ("start", "stop")] == ["start", "start", "stop", "stop"]
    page = (run_dir / "ab.html").read_text()
    assert "<svg" in page and "NO DIFFERENCE" in page
    version = chosen[0].version
    assert (f"NO DIFFERENCE: Flask {version} (B) against Flask {version} (A) is within ±2 % on every row (exit 0)"
            in capsys.readouterr().out)
    assert json.loads((run_dir / "meta.json").read_text())["ab"]["order_seed"] == 1


def _side(display: str, version: str, **env: str) -> dict:
    return {"id": "x", "display": display, "version": version, "folder": "f", "env": env}


def test_the_sides_are_named_by_version_and_by_the_settings_that_differ():
    by_version = {"a": _side("Express 5.3.0 (A)", "5.3.0"), "b": _side("Express 5.2.1 (B)", "5.2.1")}
    assert abreport.labels(by_version) == ("Express 5.3.0 (A)", "Express 5.2.1 (B)")
    by_env = {"a": _side("Gin (A)", "1.12.0", SIDE="a", POOL="3"), "b": _side("Gin (B)", "1.12.0", SIDE="b", POOL="3")}
    assert abreport.labels(by_env) == ("Gin (A) 1.12.0, SIDE=a", "Gin (B) 1.12.0, SIDE=b")


def test_the_time_axis_has_round_ticks_that_do_not_crowd():
    trials = [{"side": side, "time": f"2026-11-26T01:00:{s:02d}", "rps": 100.0}
              for side, s in (("A", 0), ("B", 1), ("B", 2), ("A", 3), ("A", 50), ("B", 53))]
    chart = abreport._chart({"workload": "json", "point": "c=64", "trials": trials},
                            abreport.datetime.fromisoformat("2026-11-26T01:00:00"))
    labels = re.findall(r">(\d+)</text>", chart)
    assert labels[-4:] == ["0", "20", "40", "60"], labels  # 0 to 53 s: every 20 s, not at each trial


@pytest.mark.parametrize("flags, message", [
    (["--threshold", "0"], "--threshold: expected a percentage above 0 and below 50, got 0"),
    (["--max-trials", "1"], "--max-trials: expected at least 2"),
    (["--gate", "p50"], "--gate: unknown value 'p50' \\(known: p99, cpu\\)"),
    (["--b-env", "=x"], "--b-env: expected KEY=VALUE"),
])
def test_bad_ab_flags_are_refused_naming_the_flag(flags, message):
    with pytest.raises((SettingsError, sides.SideError), match=message):
        cli._ab(cli.parser().parse_args(["ab", "flask", "flask", *flags]), [])


def test_calibrate_refuses_two_different_sides_and_a_server_it_cannot_hold_to_a_quota(root, tmp_path, capsys):
    everything = catalog.discover(root)
    settings = make_settings(root, ("flask",), out=tmp_path, workloads=("json",), warmup=0.0)
    envs = ((), (("POOL", "3"),))
    different = sides.sides(everything, "flask", "flask", None, envs, tmp_path / "versions")
    assert abcalibrate.run(settings, ["ab"], different, ab.Options(0.02, 8)) == 2
    assert "A and B must be one stack as it is" in capsys.readouterr().err
    same = sides.sides(everything, "flask", "flask", None, ((), ()), tmp_path / "versions")
    # FakeStack's servers are no processes in a cgroup: refused before any trial.
    code = abcalibrate.run(settings, ["ab"], same, ab.Options(0.02, 8), driver=FakeDriver(), stack=FakeStack())
    assert code == 2 and "needs a server on this machine" in capsys.readouterr().err
