"""Load profiles end to end against nginx: a connection sweep, an automatic rate sweep and a burst."""

import json

import pytest

from schemas import assert_valid_lines
from webshootout.config import profiles
from webshootout.report import stats
from webshootout.commands import run
from webshootout.config.profiles import Burst, Profile, RateSweep
from webshootout.results.rundir import RunDir
from webshootout.config.suites import Part

from .helpers import cpus_kept_near, make_settings  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]

FAST = ("nginx-static",)
PLAINTEXT = ("plaintext",)


def test_sweep_rate_sweep_and_burst(root, tmp_path, no_leftovers):
    parts = (Part("sweep", FAST, PLAINTEXT, Profile(connections=(4, 16))),
             Part("rates", FAST, PLAINTEXT, Profile(connections=(8,), rate_sweep=RateSweep(auto=True, steps=3))),
             Part("burst", FAST, PLAINTEXT, Profile(burst=Burst((2, 8, 32), 1.0))))
    settings = make_settings(root, FAST, out=tmp_path, workloads=PLAINTEXT, duration=1.5, warmup=0.0, parts=parts)
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    lines = RunDir(run_dir).lines()
    assert_valid_lines(lines)
    trials = {(line["part"], line["point"]): line for line in lines if line["kind"] == "trial"}

    assert {p for part, p in trials if part == "sweep"} == {"c=4", "c=16"}
    capacity = trials[("rates", "c=8")]["rps"]  # the closed-loop probe the sweep is derived from
    rates = sorted(line["rate"] for (part, _), line in trials.items() if part == "rates" and line["rate"])
    assert rates == list(RateSweep(auto=True, steps=3).rates(capacity))
    for (part, _), line in trials.items():
        assert line["validated"] and line["errors"]["validation"] == 0 and line["latency_histogram"]
        if part == "rates" and line["rate"]:
            assert line["mode"] == "open" and line["target_rate"] == line["rate"] and line["achieved_rate"] > 0
            assert line["service_time_us"]["p50"] <= line["latency_us"]["p99"]

    (burst,) = [line for (part, _), line in trials.items() if part == "burst"]
    assert burst["profile"] == "burst" and burst["burst_steps"] == [2, 8, 32]
    assert len(burst["timeline"]) >= 3 and burst["duration_s"] >= 2.5

    summary = json.loads((run_dir / "summary.json").read_text())
    (workload,) = summary["workloads"]
    (item,) = workload["sustainable"]
    open_points = [(round(line["achieved_rate"], 1),
                    stats.histogram_percentile(stats.merge_histograms([line["latency_histogram"]]), 99.0))
                   for line in trials.values() if line["profile"] == "open"]
    assert item["framework"] == "nginx-static" and item["slo_p99_ms"] == profiles.SLO_P99_MS
    assert item["rate"] == profiles.sustainable_rate(open_points, profiles.SLO_P99_MS)
