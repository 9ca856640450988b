"""`shootout ab` without processes: the A B B A order, the stopping rule, and the verdict on a simulated noisy,
drifting machine (A/A: no difference in at least 19 of 20 runs; A/B: the injected difference found)."""

import json
import math
import random
import re
from pathlib import Path

import jsonschema
import pytest

from fakes import FakeDriver, FakeStack
from integration.helpers import make_settings
from webshootout import cli
from webshootout.commands import ab
from webshootout.config.settings import SettingsError
from webshootout.report import abreport, verdict
from webshootout.stacks import catalog, sides

SCHEMA = json.loads((Path(__file__).resolve().parents[2] / "schemas" / "ab.schema.json").read_text())


class Machine:
    """Trials on a machine that drifts (a slow sine over the run), has slow phases (a neighbour's burst: 15 %
    slower for a few trials) and per-trial noise of about 3 % in throughput, 8 % in p99 and 1.5 % in CPU."""

    def __init__(self, seed: int, b_factor: float = 1.0):
        self.rng, self.b_factor, self.clock, self.slow = random.Random(seed), b_factor, 0, 0

    def trial(self, side: str, number: int) -> dict:
        self.clock += 1
        if self.slow:
            self.slow -= 1
        elif self.rng.random() < 0.08:
            self.slow = self.rng.randint(2, 6)
        level = (1 + 0.1 * math.sin(self.clock / 15)) * (0.85 if self.slow else 1.0)
        level *= self.b_factor if side == "B" else 1.0
        rps = 50_000 * level * math.exp(self.rng.gauss(0, 0.03))
        p99 = 900 / level * math.exp(self.rng.gauss(0, 0.08))  # a closed loop: latency ~ 1 / throughput
        cpu = 97 * math.exp(self.rng.gauss(0, 0.015))
        return {"trial": number, "rps": rps, "latency_us": {"p99": p99}, "server_cpu_percent": cpu}


def _simulate(seed: int, b_factor: float = 1.0, max_trials: int = ab.MAX_TRIALS, threshold: float = 0.02):
    machine, order = Machine(seed, b_factor), []
    row = ab.Row("json", None, {})

    def run_trial(r, side, number):
        order.append((side, number))
        r.trials[side].append(machine.trial(side, number))

    def judge(r):
        r.ratios = verdict.row(r.trials["A"], r.trials["B"], threshold, len(ab.looks(max_trials)))

    ab.alternate([row], run_trial, judge, max_trials)
    return row, order


def test_the_order_is_a_b_b_a_and_each_pair_runs_side_by_side():
    _, order = _simulate(0, max_trials=6)
    assert [side for side, _ in order] == list("ABBAABBAABBA")
    assert [n for _, n in order] == [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]


def test_looks_start_at_the_minimum_pairs_and_include_the_last():
    assert ab.looks(20) == [8, 12, 16, 20]
    assert ab.looks(10) == [8, 10]
    assert ab.looks(4) == [4]


def test_an_a_a_run_answers_no_difference_in_at_least_19_of_20():
    answers = [{r.answer for r in _simulate(seed)[0].ratios} for seed in range(20)]
    assert sum(a == {verdict.SAME} for a in answers) >= 19, answers


def test_an_injected_difference_is_found_with_its_sign_and_the_true_ratio_inside_the_interval():
    # 10 %: above what 20 pairs on this machine detect 80 % of the time (its slow phases make that ~7 %).
    for seed in range(5):
        row, _ = _simulate(seed, b_factor=0.9)
        (throughput,) = [r for r in row.ratios if r.metric == "throughput"]
        assert throughput.answer == "slower" and throughput.worse
        assert throughput.low <= 0.9 <= throughput.high
        assert verdict.regressed(row.ratios, 0.02)


def test_a_clear_difference_stops_at_the_first_look():
    row, order = _simulate(1, b_factor=0.7)
    assert row.decided and len(order) == 2 * ab.MIN_PAIRS


def test_the_three_answers_and_when_a_ratio_is_decided():
    same = [(100.0, 100.0 * f) for f in (0.999, 1.001, 1.0, 0.998, 1.002, 1.0, 0.999, 1.001)]
    r = verdict.ratio("throughput", same, 0.02, 1)
    assert r.answer == verdict.SAME and r.decided and r.words().startswith("no difference, within ±0.")
    noisy = [(100.0, 100.0 * f) for f in (0.9, 1.1, 1.05, 0.95, 1.0, 0.92, 1.08, 1.0)]
    r = verdict.ratio("throughput", noisy, 0.02, 1)
    assert r.answer == verdict.SAME and not r.decided and r.mdd_percent > 5
    faster = [(100.0, 100.0 * f) for f in (1.10, 1.11, 1.09, 1.10, 1.12, 1.10)]
    assert verdict.ratio("throughput", faster, 0.02, 1).answer == "faster"
    # For p99 and CPU per request lower is better: a higher B is worse.
    r = verdict.ratio("p99", faster, 0.02, 1)
    assert r.answer == "slower" and r.worse and verdict.regressed([r], 0.02) == [r]
    assert verdict.regressed([r], 0.2) == [], "worse, but not past the threshold"


def test_ab_writes_ab_json_to_its_schema_a_page_and_exits_by_the_verdict(root, tmp_path, capsys):
    everything = catalog.discover(root)
    chosen = sides.sides(everything, "flask", "flask", None, ((), ()), tmp_path / "versions")
    settings = make_settings(root, ("flask",), out=tmp_path, workloads=("plaintext", "json"), warmup=0.0)
    stack = FakeStack()
    code = ab.run(settings, ["ab", "flask", "flask"], chosen, ab.Options(0.02, 8), driver=FakeDriver(), stack=stack)
    assert code == 0
    (run_dir,) = list(tmp_path.iterdir())
    result = json.loads((run_dir / "ab.json").read_text())
    jsonschema.validate(result, SCHEMA)
    assert [(r["workload"], r["pairs"], r["decided"]) for r in result["rows"]] == [("plaintext", 8, True),
                                                                                   ("json", 8, True)]
    assert {t["idle_cpu_percent"] for r in result["rows"] for t in r["trials"]} == {0.5}
    assert [e[0] for e in stack.events if e[0] in ("start", "stop")] == ["start", "start", "stop", "stop"]
    page = (run_dir / "ab.html").read_text()
    assert "<svg" in page and "no regression" in page
    version = chosen[0].version
    assert f"no regression of Flask {version} (B) against Flask {version} (A)" in capsys.readouterr().out


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
    (["--b-env", "=x"], "--b-env: expected KEY=VALUE"),
])
def test_bad_ab_flags_are_refused_naming_the_flag(flags, message):
    with pytest.raises((SettingsError, sides.SideError), match=message):
        cli._ab(cli.parser().parse_args(["ab", "flask", "flask", *flags]), [])
