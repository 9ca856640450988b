"""Turns a run's meta.json and result lines into one summary: the numbers every report shows.

The terminal table, markdown, HTML and summary.json all render this structure, so they cannot disagree.
Per workload x load point x framework: median req/s over trials with min-max, CV and a bootstrap 95 %
interval, a tie-aware rank, latency percentiles merged from histograms when every trial kept one,
server cost and flags. Results that were never measured are listed with their reason.
"""

from __future__ import annotations

import json
from collections import defaultdict

from .. import profiles, stats

SCHEMA = 1
NOISY_CV = 0.05
PERCENTILES = (("p50", 50.0), ("p75", 75.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9), ("p99_99", 99.99))
LOG_TAIL_CHARS = 2000


def point_of(line: dict) -> dict:
    """The load point a trial belongs to. Lines from the profile-aware harness name it ("point", "part");
    older lines and other drivers are labelled the same way from their connections and rate."""
    rate = line["rate"] if "rate" in line else line.get("target_rate")
    profile = line.get("profile") or line.get("mode") or ("open" if rate is not None else "closed")
    return {"part": line.get("part"), "label": line.get("point") or _label(line, profile, rate), "profile": profile,
            "connections": line["connections"], "rate": rate, "hash_n": line.get("hash_n")}


def _label(line: dict, profile: str, rate: float | None) -> str:
    if profile == "burst" and line.get("burst_steps"):
        parts = [f"burst {'>'.join(map(str, line['burst_steps']))} x {line.get('burst_step_seconds', 0):g}s"]
    else:
        parts = [f"c={line['connections']}"] if profile in ("closed", "open") else [
            f"{profile} c={line['connections']}"]
        if rate is not None:
            parts.append(f"rate={rate:g}")
    if line.get("hash_n") is not None:
        parts.append(f"n={line['hash_n']}")
    return " ".join(parts)


def _point_sort_key(point: dict) -> tuple:
    # Steady closed loop first, then open loop, then named profiles such as bursts.
    order = {"closed": 0, "open": 1}.get(point["profile"], 2)
    return (point["part"] or "", order, point["profile"], point["hash_n"] or 0, point["rate"] or 0,
            point["connections"], point["label"])


def _latency(trials: list[dict]) -> dict:
    """Merged histogram percentiles when every trial has a histogram; otherwise the median trial's own."""
    if all(t.get("latency_histogram") for t in trials):
        buckets = stats.merge_histograms([t["latency_histogram"] for t in trials])
        values = {key: stats.histogram_percentile(buckets, q) for key, q in PERCENTILES}
        values.update(max=buckets[-1][0], mean=round(stats.histogram_mean(buckets), 1))
        return {**values, "source": f"merged histograms of {len(trials)} trials", "merged": True}
    middle = _median_trial(trials)
    values = {key: middle["latency_us"].get(key) for key, _ in PERCENTILES}
    values.update(max=middle["latency_us"].get("max"), mean=middle["latency_us"].get("mean"))
    # Percentiles of different trials cannot be averaged; say which single trial these come from.
    why = f"{middle['driver']} keeps no histogram" if len(trials) > 1 else "one trial"
    return {**values, "source": f"trial {middle['trial']} (median req/s; {why}, not merged)", "merged": False}


def _median_trial(trials: list[dict]) -> dict:
    """The trial at the median req/s (the lower middle one for an even count)."""
    ordered = sorted(trials, key=lambda t: (t["rps"], t["trial"]))
    return ordered[(len(ordered) - 1) // 2]


def _flags(trials: list[dict], rps: list[float]) -> list[str]:
    flags = {flag for t in trials for flag in t.get("flags", [])}
    if stats.cv(rps) > NOISY_CV:
        flags.add("noisy")
    if any(sum(t["errors"].values()) for t in trials):
        flags.add("errors")
    if any(t.get("target_rate") and (t.get("achieved_rate") or 0) < profiles.BELOW_RATE * t["target_rate"] for t in trials):
        flags.add("below-rate")
    if any("cookieless" in note for t in trials for note in t.get("notes", [])):
        flags.add("cookieless")
    return sorted(flags)


def _median_of(trials: list[dict], key: str) -> float | None:
    values = [t[key] for t in trials if t.get(key) is not None]
    return round(stats.median(values), 1) if values else None


def _efficiency(trials: list[dict], per) -> float | None:
    values = [v for v in (per(t) for t in trials) if v is not None]
    return round(stats.median(values), 1) if values else None


def _result(trials: list[dict]) -> dict:
    trials = sorted(trials, key=lambda t: t["trial"])
    rps = [t["rps"] for t in trials]
    low, high = stats.bootstrap_ci(rps)
    errors: dict[str, int] = defaultdict(int)
    for t in trials:
        for kind, count in t["errors"].items():
            errors[kind] += count
    first = trials[0]
    result = {
        "framework": first["framework"], "display": first.get("display", first["framework"]),
        "language": first.get("language"), "driver": first["driver"], "trials": len(trials),
        "rps": {"median": round(stats.median(rps), 1), "min": round(min(rps), 1), "max": round(max(rps), 1),
                "cv": round(stats.cv(rps), 4), "ci95": [round(low, 1), round(high, 1)],
                "per_trial": [round(v, 1) for v in rps]},
        "latency_us": _latency(trials),
        "server_cpu_percent": _median_of(trials, "server_cpu_percent"),
        "database_cpu_percent": _median_of(trials, "database_cpu_percent"),
        "client_cpu_percent": _median_of(trials, "client_cpu_percent"),
        "server_rss_peak_mb": max(t["server_rss_peak_mb"] for t in trials),
        "requests_per_cpu_second": _efficiency(
            trials, lambda t: stats.per_cpu_second(t["rps"], t["server_cpu_percent"])),
        "rps_per_mb": _efficiency(trials, lambda t: stats.per_mb(t["rps"], t["server_rss_peak_mb"])),
        "requests": sum(t["requests"] for t in trials),
        "errors": sum(errors.values()), "errors_by_kind": {k: v for k, v in sorted(errors.items()) if v},
        "flags": _flags(trials, rps),
        "target_rate": first.get("target_rate"),
        "achieved_rate": _median_of(trials, "achieved_rate"),
        "timeline": _median_trial(trials).get("timeline"),
    }
    return result


def _rank(results: list[dict]) -> list[dict]:
    ranked = stats.rank_with_ties([(r["framework"], r["rps"]["median"], *r["rps"]["ci95"]) for r in results])
    by_name = {r["framework"]: r for r in results}
    return [{**by_name[r.name], "rank": r.rank, "rank_label": r.label} for r in ranked]


def _not_measured(lines: list[dict]) -> list[dict]:
    out = []
    for line in lines:
        kind = line["kind"]
        if kind == "trial" or (kind == "verification" and line["passed"]):
            continue
        what = {"fault": f"fault at {line.get('stage')}", "skipped": "skipped",
                "verification": "failed verification"}[kind]
        out.append({"framework": line["framework"], "workload": line.get("workload"), "what": what,
                    "reason": line.get("reason") or "", "log_tail": (line.get("log_tail") or "")[-LOG_TAIL_CHARS:]})
    return out


def _run_header(meta: dict) -> dict:
    settings = meta.get("settings", {})
    return {
        "created": meta.get("created"), "command": meta.get("command"), "git_commit": meta.get("git_commit"),
        "webshootout": meta.get("webshootout"), "machine": meta.get("machine", {}),
        "pinning": meta.get("pinning", {}), "tools": meta.get("tools", {}),
        "settings": {k: settings.get(k) for k in ("driver", "duration", "warmup", "trials")},
        "frameworks": meta.get("frameworks", {}),
    }


def summarize(meta: dict, lines: list[dict]) -> dict:
    groups: dict[str, dict[str, dict[str, list[dict]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    points: dict[str, dict] = {}
    for line in lines:
        if line["kind"] != "trial":
            continue
        point = point_of(line)
        key = json.dumps(point, sort_keys=True)
        points[key] = point
        groups[line["workload"]][key][line["framework"]].append(line)
    workloads = []
    for workload, by_point in groups.items():
        ordered = sorted(by_point, key=lambda k: _point_sort_key(points[k]))
        # Several suite parts can measure the same label; only then does the label need the part's name.
        several_parts = len({points[k]["part"] for k in ordered}) > 1
        entry = {"workload": workload, "points": [
            {**points[k], "label": f"{points[k]['part']}: {points[k]['label']}" if several_parts
             else points[k]["label"], "results": _rank([_result(trials) for trials in by_point[k].values()])}
            for k in ordered]}
        entry["sustainable"] = sustainable(entry, {p["label"]: by_point[k] for p, k in zip(entry["points"], ordered)})
        workloads.append(entry)
    labels = list(dict.fromkeys(p["label"] for w in workloads for p in w["points"]))
    return {"schema": SCHEMA, "run": {**_run_header(meta), "load_points": labels}, "workloads": workloads,
            "not_measured": _not_measured(lines)}


def sustainable(workload: dict, trials_by_label: dict[str, dict[str, list[dict]]]) -> list[dict]:
    """Per rate sweep and framework: the highest rate whose merged p99 met the SLO (`slo_p99_ms`)."""
    found = []
    for sweep in sweeps(workload):
        if sweep["axis"] != "rate":
            continue
        frameworks = dict.fromkeys(r["framework"] for p in sweep["points"] for r in p["results"])
        for framework in frameworks:
            pairs, slo = [], profiles.SLO_P99_MS
            for point in sweep["points"]:
                for result in point["results"]:
                    if result["framework"] == framework:
                        pairs.append((result["achieved_rate"] or point["rate"], result["latency_us"]["p99"]))
                slo = next((t["slo_p99_ms"] for t in trials_by_label[point["label"]].get(framework, [])
                            if t.get("slo_p99_ms")), slo)
            found.append({"framework": framework, "series": sweep["name"], "slo_p99_ms": slo,
                          "rate": profiles.sustainable_rate(pairs, slo)})
    return found


def to_json(summary: dict) -> str:
    return json.dumps(summary, indent=2, sort_keys=True) + "\n"


def sweeps(workload: dict) -> list[dict]:
    """Series of load points that differ only in connections (closed loop) or rate (open loop).

    Points are grouped by everything in their label except the varying number, so hash n=1 and n=100 or
    different connection counts of a rate sweep form separate series. Returns
    [{"profile", "axis": "connections"|"rate", "name", "points": [...]}] for series with 2+ points.
    """
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for point in workload["points"]:
        axis = "rate" if point["profile"] == "open" and point["rate"] is not None else "connections"
        if point["profile"] not in ("closed", "open"):
            continue  # a burst varies connections within one trial: its timeline shows that
        token = f"rate={point['rate']:g}" if axis == "rate" else f"c={point['connections']}"
        rest = " ".join(t for t in point["label"].split() if t != token)
        groups[(point["profile"], axis, rest)].append(point)
    return [{"profile": profile, "axis": axis, "name": rest or profile,
             "points": sorted(pts, key=lambda p: p[axis])}
            for (profile, axis, rest), pts in groups.items() if len({p[axis] for p in pts}) > 1]
