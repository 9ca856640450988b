"""The summary every report renders, checked against the committed fixture run and its schema."""

import json
from pathlib import Path

import pytest

from schemas import assert_valid_summary
from webshootout.report import stats
from webshootout.report import fmt, summary
from webshootout.results.rundir import RunDir

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "fixtures" / "runs" / "baseline"


@pytest.fixture(scope="module")
def lines():
    return RunDir(FIXTURE).lines()


@pytest.fixture(scope="module")
def data(lines):
    return summary.summarize(RunDir(FIXTURE).read_meta(), lines)


def _result(data, workload, label, framework):
    point = next(p for w in data["workloads"] if w["workload"] == workload for p in w["points"] if p["label"] == label)
    return next(r for r in point["results"] if r["framework"] == framework)


def test_summary_matches_its_schema(data):
    assert_valid_summary(json.loads(summary.to_json(data)))


def test_points_are_ordered_closed_first_then_profiles(data):
    assert [[p["label"] for p in w["points"]] for w in data["workloads"]] == [
        ["c=16", "c=64"], ["c=64", "burst 16>256>16 x 2s"]]


def test_throughput_statistics_come_from_the_trials(data, lines):
    rps = [line["rps"] for line in lines if line["kind"] == "trial" and line["framework"] == "alpha"
           and line["workload"] == "plaintext" and line["connections"] == 64]
    result = _result(data, "plaintext", "c=64", "alpha")
    assert result["rps"]["median"] == round(sorted(rps)[1], 1)
    assert (result["rps"]["min"], result["rps"]["max"]) == (round(min(rps), 1), round(max(rps), 1))
    # 3 trials are too few for a 95 % interval: the ranking interval is their min-max, labelled a range.
    assert result["ranking"] == {"metric": "rps", "value": result["rps"]["median"], "low": round(min(rps), 1),
                                 "high": round(max(rps), 1), "kind": "range", "coverage": 0.75}
    assert result["rps"]["cv"] == round(stats.cv(rps), 4)


def test_overlapping_intervals_tie_and_ranks_count_entries(data):
    labels = {r["framework"]: r["rank_label"] for r in data["workloads"][0]["points"][1]["results"]}
    assert labels == {"alpha": "=1st", "beta": "=1st", "gamma": "3rd", "omega": None, "theta": None}
    labels = {r["framework"]: r["rank_label"] for r in data["workloads"][1]["points"][0]["results"]}
    assert labels == {"alpha": "1st", "beta": "2nd"}


def test_flagged_rows_are_not_ranked_and_follow_the_ranked_ones(data):
    # alpha is the fastest contestant at plaintext c=16, but one of its trials was client-bound.
    rows = data["workloads"][0]["points"][0]["results"]
    assert [(r["framework"], r["standing"], r["rank_label"]) for r in rows] == [
        ("beta", "ranked", "1st"), ("gamma", "ranked", "2nd"), ("omega", "baseline", None),
        ("alpha", "flagged", None)]
    assert "client-bound" in rows[-1]["flags"]
    burst = data["workloads"][1]["points"][1]["results"]
    assert {(r["standing"], r["rank"]) for r in burst} == {("flagged", None)}  # both had timeouts


def test_the_baseline_is_the_ceiling_not_a_contestant(data):
    (omega,) = [r for r in data["workloads"][0]["points"][1]["results"] if r["framework"] == "omega"]
    assert omega["standing"] == "baseline" and omega["rank"] is None
    # It is faster than every contestant, yet the contestants' ranks start at 1st.
    ranked = [r for r in data["workloads"][0]["points"][1]["results"] if r["rank"]]
    assert omega["rps"]["median"] > max(r["rps"]["median"] for r in ranked)
    assert min(r["rank"] for r in ranked) == 1


def test_a_variant_outside_the_contract_is_apart(data):
    (theta,) = [r for r in data["workloads"][0]["points"][1]["results"] if r["framework"] == "theta"]
    assert theta["standing"] == "outside_contract" and theta["rank"] is None
    assert theta["outside_contract"].startswith("keeps its state in SQLite")


def test_tool_versions_are_short(data):
    assert data["run"]["tools"] == {"ab": "2.3", "postgres": "15.0", "python": "3.11.7", "wrk": "4.1.0"}
    assert summary.short_version("not found") == "not found"


def test_the_load_generators_io_path_is_named_from_its_trials(lines):
    meta = RunDir(FIXTURE).read_meta()
    trials = [{**line, "io": "io_uring"} if line["kind"] == "trial" else line for line in lines]
    assert summary.summarize(meta, trials)["run"]["tools"]["shootout-load"] == "io_uring"
    first = next(line for line in trials if line["kind"] == "trial")
    assert summary.summarize(meta, [*trials, {**first, "io": "epoll"}])["run"]["tools"]["shootout-load"] == \
        "epoll and io_uring"
    # Runs from before the field, and other drivers, name no path.
    assert "shootout-load" not in summary.summarize(meta, lines)["run"]["tools"]


def test_optional_facts_of_newer_lines(data, lines):
    gamma = _result(data, "plaintext", "c=64", "gamma")
    assert "closes-connections" in gamma["flags"] and gamma["standing"] == "ranked"
    assert gamma["keepalive"] == {"requests": 5, "connections": 5}
    assert (gamma["connect_s"], gamma["responses_total"], gamma["warmup_curve"], gamma["memory_method"]) == (
        None, None, None, None)  # wrk lines carry none of them: nothing is shown
    beta = _result(data, "plaintext", "c=64", "beta")
    trials = sorted((line for line in lines if line["kind"] == "trial" and line["framework"] == "beta"
                     and line["workload"] == "plaintext" and line["connections"] == 64), key=lambda t: t["rps"])
    assert beta["memory_method"] == "cgroup v1 memory.stat rss+mapped_file"
    assert beta["responses_total"] == sum(t["responses_total"] for t in trials)
    first = min(trials, key=lambda t: t["trial"])  # every trial warmed up alike: the earliest one is shown
    assert beta["warmup_curve"] == first["warmup_curve"] and beta["warmup_s"] == 2.0
    assert beta["keepalive"] == {"requests": 5, "connections": 1} and "closes-connections" not in beta["flags"]


def test_latency_is_merged_from_histograms_when_every_trial_has_one(data, lines):
    trials = [line for line in lines if line["kind"] == "trial" and line["framework"] == "beta"
              and line["workload"] == "json" and line["connections"] == 64]
    counts: dict[float, int] = {}
    for trial in trials:
        for value, count in trial["latency_histogram"]:
            counts[value] = counts.get(value, 0) + count
    total = sum(counts.values())
    running, p99 = 0, None
    for value in sorted(counts):
        running += counts[value]
        if running >= 0.99 * total:
            p99 = value
            break
    latency = _result(data, "json", "c=64", "beta")["latency_us"]
    assert latency["merged"] is True
    assert latency["p99"] == p99
    assert latency["source"] == "merged histograms of 3 trials"


def test_latency_without_histograms_is_the_median_trials_own(data, lines):
    trials = sorted((line for line in lines if line["kind"] == "trial" and line["framework"] == "gamma"
                     and line["workload"] == "plaintext" and line["connections"] == 16), key=lambda t: t["rps"])
    latency = _result(data, "plaintext", "c=16", "gamma")["latency_us"]
    assert latency["merged"] is False
    assert latency["p99"] == trials[1]["latency_us"]["p99"]
    assert latency["source"].startswith(f"trial {trials[1]['trial']} (median req/s; wrk keeps no histogram")


def test_efficiency_and_cost(data, lines):
    trials = [line for line in lines if line["kind"] == "trial" and line["framework"] == "gamma"
              and line["workload"] == "plaintext" and line["connections"] == 64]
    result = _result(data, "plaintext", "c=64", "gamma")
    per_cpu = sorted(t["rps"] / (t["server_cpu_percent"] / 100) for t in trials)[1]
    assert result["requests_per_cpu_second"] == round(per_cpu, 1)
    assert result["server_rss_peak_mb"] == max(t["server_rss_peak_mb"] for t in trials)


def test_burst_keeps_the_median_trials_timeline_and_errors(data):
    result = _result(data, "json", "burst 16>256>16 x 2s", "alpha")
    assert [s["second"] for s in result["timeline"]] == [1, 2, 3, 4, 5, 6]
    assert result["errors"] == 9 and result["errors_by_kind"] == {"timeout": 9}
    assert "errors" in result["flags"]


def test_not_measured_lists_every_reason(data):
    assert [(i["framework"], i["workload"], i["what"]) for i in data["not_measured"]] == [
        ("gamma", "json", "failed verification"), ("delta", None, "fault at start"), ("epsilon", None, "skipped")]
    assert "text/html" in data["not_measured"][0]["reason"]


def _line(trial, rps, **extra):
    """A trial line labelled as the harness labels it (profiles.Point.label)."""
    rate = extra.get("rate")
    label = {"part": "adhoc", "point": "c=8" + (f" rate={rate:g}" if rate is not None else ""),
             "profile": extra.get("mode", "closed")}
    return {**label, "kind": "trial", "framework": "x", "workload": "plaintext", "connections": 8, "trial": trial,
            "driver": "native", "rps": rps, "requests": int(rps), "errors": {"status": 0},
            "latency_us": {"p50": 1.0, "p99": 2.0}, "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0,
            "flags": [], "notes": [], **extra}


def test_flags_noisy_below_rate_and_load_points_by_rate():
    lines = [_line(1, 1000.0, mode="open", target_rate=1000, achieved_rate=1000.0, rate=1000),
             _line(2, 900.0, mode="open", target_rate=1000, achieved_rate=980.0, rate=1000),
             _line(1, 500.0, mode="open", target_rate=500, achieved_rate=500.0, rate=500)]
    data = summary.summarize({}, lines)
    points = data["workloads"][0]["points"]
    assert [p["label"] for p in points] == ["c=8 rate=500", "c=8 rate=1000"]
    # CV of [1000, 900] is 70.7 / 950 = 7.4 % > 5 %; 980 < 99 % of 1000.
    assert points[1]["results"][0]["flags"] == ["below-rate", "noisy"]
    assert points[1]["results"][0]["standing"] == "flagged"
    assert points[0]["results"][0]["flags"] == []
    assert summary.sweeps(data["workloads"][0])[0]["axis"] == "rate"


def test_a_partial_histogram_set_is_not_merged():
    lines = [_line(1, 100.0, latency_histogram=[[5, 1]]), _line(2, 110.0), _line(3, 120.0)]
    latency = summary.summarize({}, lines)["workloads"][0]["points"][0]["results"][0]["latency_us"]
    assert latency["merged"] is False and latency["source"].startswith("trial 2 ")


def test_sustainable_throughput_is_the_highest_rate_under_the_slo():
    def point(rate, p99_us, framework="x"):
        return {**_line(1, rate * 0.999, mode="open", target_rate=rate, achieved_rate=rate * 0.999, rate=rate,
                        slo_p99_ms=5.0, latency_us={"p50": 1.0, "p99": p99_us}), "framework": framework}
    lines = [point(100, 900), point(200, 4000), point(300, 9000), point(100, 6000, "y"), point(200, 7000, "y")]
    (workload,) = summary.summarize({}, lines)["workloads"]
    assert workload["sustainable"] == [
        {"framework": "x", "series": "c=8", "slo_p99_ms": 5.0, "rate": 199.8},
        {"framework": "y", "series": "c=8", "slo_p99_ms": 5.0, "rate": None}]


def test_ten_trials_give_a_95_percent_interval_three_a_range():
    lines = [_line(n, 1000.0 + 10 * n) for n in range(1, 11)]
    ranking = summary.summarize({}, lines)["workloads"][0]["points"][0]["results"][0]["ranking"]
    assert (ranking["kind"], ranking["low"], ranking["high"]) == ("ci", 1020.0, 1090.0)  # x(2)..x(9)
    assert ranking["coverage"] == round(1 - 22 / 1024, 4)
    ranking = summary.summarize({}, lines[:3])["workloads"][0]["points"][0]["results"][0]["ranking"]
    assert (ranking["kind"], ranking["low"], ranking["high"], ranking["coverage"]) == ("range", 1010.0, 1030.0, 0.75)


def test_open_loop_points_are_ranked_by_p99_at_the_achieved_rate():
    def trial(framework, n, rps, p99):
        return {**_line(n, rps, profile="open", mode="open", target_rate=1000, achieved_rate=rps, rate=1000,
                        latency_us={"p50": 100.0, "p99": p99}), "framework": framework}
    # fast keeps up with a low tail; busy served a hair more but with a long tail: fast ranks first.
    lines = [trial("fast", n, 999.5, 900.0 + n) for n in (1, 2, 3)] + \
            [trial("busy", n, 999.9, 5000.0 + n) for n in (1, 2, 3)]
    (point,) = summary.summarize({}, lines)["workloads"][0]["points"]
    assert [(r["framework"], r["rank_label"]) for r in point["results"]] == [("fast", "1st"), ("busy", "2nd")]
    assert point["results"][0]["ranking"] == {"metric": "p99_us", "value": 902.0, "low": 901.0, "high": 903.0,
                                              "kind": "range", "coverage": 0.75}


def test_trials_in_two_groups_are_flagged_bimodal_with_both_groups_spelled_out():
    lines = [_line(n, rps) for n, rps in enumerate([11998.0, 11338.0, 7448.0, 7464.0, 12876.0], start=1)]
    row = summary.summarize({}, lines)["workloads"][0]["points"][0]["results"][0]
    assert row["flags"] == ["bimodal", "noisy"] and row["rps"]["groups"] == [[7448.0, 7464.0, 2], [11338.0, 12876.0, 3]]
    assert fmt.flag_text("bimodal", row).startswith(
        "bimodal: the trials fall in two groups, 7,448-7,464 req/s (2 trials) and 11,338-12,876 (3), more than 20 % ")
    steady = summary.summarize({}, [_line(n, 1000.0 + n) for n in range(1, 6)])["workloads"][0]["points"][0]
    assert steady["results"][0]["rps"]["groups"] == [] and "bimodal" not in steady["results"][0]["flags"]


def test_the_runs_speed_is_the_median_and_range_of_its_trials_probes():
    lines = [{"kind": "trial", "machine_speed": {"before": b, "after": a}} for b, a in ((5.0, 5.2), (4.0, 6.0))]
    lines += [{"kind": "trial", "machine_speed": None}, {"kind": "fault"}]
    speed = summary.machine_speed(lines)
    assert speed == {"median": 5.1, "min": 4.0, "max": 6.0, "probes": 4}
    assert fmt.speed_text({"machine_speed": speed}).startswith("5.10 M probe steps/s median, 4.00-6.00 over 4 probes")
    assert summary.machine_speed([{"kind": "trial"}]) is None and fmt.speed_text({"machine_speed": None}) is None
