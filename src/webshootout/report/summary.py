"""Turns a run's meta.json and result lines into one summary: the numbers every report shows.

The terminal table, markdown, HTML and summary.json all render this structure, so they cannot disagree.
Per workload x load point x framework one row (report/result.py), with its standing: ranked with ties
among the contract's contestants, the baseline (the ceiling), flagged (never ranked) or outside the
contract (shown apart). Results that were never measured are listed with their reason.
"""

from __future__ import annotations

import json
import re
import statistics
from collections import defaultdict

from ..system import cpulink
from ..config import profiles
from ..workloads import registry
from . import phases, result, stats

SCHEMA = 2
LOG_TAIL_CHARS = 2000
BASELINE_KIND = "baseline"  # a manifest's kind for a stack that is the ceiling, not a contestant
STANDINGS = ("ranked", "baseline", "flagged", "outside_contract")  # the order rows are shown in


def point_of(line: dict) -> dict:
    """The load point a trial belongs to, as the harness labelled it (profiles.Point.label, the one source)."""
    rate = line["rate"] if "rate" in line else line.get("target_rate")
    axes = {key: line.get(key) for key, axis in registry.axes().items() if axis.in_trial_line}
    return {"part": line["part"], "label": line["point"], "profile": line["profile"],
            "connections": line["connections"], "rate": rate, **axes, "transport": transport_of(line)}


def transport_of(line: dict) -> str:
    """h1, h1+tls, h2c or h2+tls, as profiles.Point.transport; trials from before TLS were h1."""
    tls, http2 = bool(line.get("tls")), line.get("http") == "2"
    return ("h2+tls" if tls else "h2c") if http2 else ("h1+tls" if tls else "h1")


def _shown(point: dict, mixed: bool) -> str:
    return point["label"] + (" h1" if mixed and point["transport"] == "h1" else "")


def _point_sort_key(point: dict) -> tuple:
    # Steady closed loop first, then open loop, then named profiles such as bursts.
    order = {"closed": 0, "open": 1}.get(point["profile"], 2)
    axes = tuple(axis.sort_value(point.get(key)) for key, axis in registry.axes().items() if axis.in_trial_line)
    return (point["part"] or "", order, point["profile"], *axes, point["rate"] or 0, point["connections"],
            point["label"])


def _standing(row: dict, kinds: dict[str, str]) -> str:
    if row["outside_contract"]:
        return "outside_contract"
    if kinds.get(row["framework"]) == BASELINE_KIND:
        return "baseline"
    unrankable = set(row["flags"]) & set(result.DISQUALIFYING) or row["ranking"]["value"] is None
    return "flagged" if unrankable else "ranked"


def _rank(rows: list[dict], kinds: dict[str, str]) -> list[dict]:
    """Ranks the contract's unflagged contestants on their ranking metric; the other rows follow in the
    order of STANDINGS, unranked."""
    rows = [{**row, "standing": _standing(row, kinds), "rank": None, "rank_label": None} for row in rows]
    ranked = [row for row in rows if row["standing"] == "ranked"]
    higher = all(row["ranking"]["metric"] == "rps" for row in rows)  # one metric per point: its profile's
    order = stats.rank_with_ties([(r["framework"], r["ranking"]["value"], r["ranking"]["low"], r["ranking"]["high"])
                                  for r in ranked], higher_is_better=higher)
    by_name = {r["framework"]: r for r in ranked}
    out = [{**by_name[r.name], "rank": r.rank, "rank_label": r.label} for r in order]
    rest = sorted((row for row in rows if row["standing"] != "ranked"),
                  key=lambda row: (STANDINGS.index(row["standing"]), -row["rps"]["median"], row["framework"]))
    return out + rest


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


def short_version(text: str) -> str:
    """A tool's version from its banner: "This is ApacheBench, Version 2.3 <$Revision$>" -> "2.3",
    "wrk debian/4.1.0-3+b2 [epoll] Copyright ..." -> "4.1.0"; a text without one ("not found") as it is."""
    found = re.search(r"\d+(?:\.\d+)+", text)
    return found.group() if found else text


def _run_header(meta: dict) -> dict:
    settings = meta.get("settings", {})
    return {
        "created": meta.get("created"), "command": meta.get("command"), "git_commit": meta.get("git_commit"),
        "webshootout": meta.get("webshootout"), "machine": meta.get("machine", {}),
        "pinning": meta.get("pinning", {}),
        # The latest session's: a resumed run says where its last trials ran.
        "topology": next((s["topology"] for s in reversed(meta.get("sessions", [])) if s.get("topology")), None),
        "tools": {name: short_version(text) for name, text in meta.get("tools", {}).items()},
        "settings": {k: settings.get(k) for k in ("driver", "duration", "warmup", "trials")},
        "suite": (settings.get("suite") or {}).get("name"),  # None: flags alone chose what ran
        "frameworks": meta.get("frameworks", {}),
    }


def machine_speed(lines: list[dict]) -> dict | None:
    """The run's speed from the probes beside its trials (system/speed.py): their median and range, million
    steps a second; None when no trial recorded one."""
    probes = [v for line in lines if line["kind"] == "trial" and line.get("machine_speed")
              for v in line["machine_speed"].values()]
    if not probes:
        return None
    return {"median": statistics.median(probes), "min": min(probes), "max": max(probes), "probes": len(probes)}


def _keepalive(lines: list[dict]) -> dict[tuple[str, str], dict]:
    """What verification measured of keep-alive, per (framework, workload), where it did."""
    return {(line["framework"], line["workload"]): line["keepalive"] for line in lines
            if line["kind"] == "verification" and line.get("keepalive")}


def summarize(meta: dict, lines: list[dict]) -> dict:
    kinds = {fid: f.get("kind") for fid, f in meta.get("frameworks", {}).items()}
    keepalive = _keepalive(lines)
    groups: dict[str, dict[str, dict[str, list[dict]]]] = defaultdict(lambda: defaultdict(lambda: defaultdict(list)))
    points: dict[str, dict] = {}
    trials, slopes = phases.adjusted(cpulink.judged([line for line in lines if line["kind"] == "trial"]))
    for line in trials:
        point = point_of(line)
        key = json.dumps(point, sort_keys=True)
        points[key] = point
        groups[line["workload"]][key][line["framework"]].append(line)
    workloads = []
    # Cleartext HTTP/1.1 labels name no transport (so older runs keep theirs); beside others they say h1.
    mixed = len({point["transport"] for point in points.values()}) > 1
    for workload, by_point in groups.items():
        ordered = sorted(by_point, key=lambda k: _point_sort_key(points[k]))
        # Several suite parts can measure the same label; only then does the label need the part's name.
        several_parts = len({points[k]["part"] for k in ordered}) > 1
        entry = {"workload": workload, "points": [
            {**points[k], "label": (f"{points[k]['part']}: " if several_parts else "") + _shown(points[k], mixed),
             "results": _rank([result.build(trials, points[k]["profile"], keepalive.get((name, workload)))
                               for name, trials in by_point[k].items()], kinds)}
            for k in ordered]}
        entry["sustainable"] = sustainable(entry, {p["label"]: by_point[k] for p, k in zip(entry["points"], ordered)})
        workloads.append(entry)
    labels = list(dict.fromkeys(p["label"] for w in workloads for p in w["points"]))
    header = _run_header(meta)
    # Which I/O path shootout-load took is known only from its trials (it chooses at each start).
    paths = sorted({line["io"] for line in lines if line["kind"] == "trial" and line.get("io")})
    if paths:
        header["tools"]["shootout-load"] = " and ".join(paths)
    header["machine_speed"] = machine_speed(lines)
    header["link_adjustment"] = [s.to_dict() for s in slopes]
    return {"schema": SCHEMA, "run": {**header, "load_points": labels}, "workloads": workloads,
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
                for row in point["results"]:
                    if row["framework"] == framework:
                        pairs.append((row["achieved_rate"] or point["rate"], row["latency_us"]["p99"]))
                slo = next((t["slo_p99_ms"] for t in trials_by_label[point["label"]].get(framework, [])
                            if t.get("slo_p99_ms")), slo)
            found.append({"framework": framework, "series": sweep["name"], "slo_p99_ms": slo,
                          "rate": profiles.sustainable_rate(pairs, slo)})
    return found


def to_json(summary: dict) -> str:
    return json.dumps(summary, indent=2, sort_keys=True) + "\n"


def sweeps(workload: dict) -> list[dict]:
    """Series of load points that differ only in connections (closed loop), rate (open loop), or the rows per
    request (queries, count).

    Points are grouped by everything in their label except the varying number, so hash n=1 and n=100 or
    different connection counts of a rate sweep form separate series. Returns
    [{"profile", "axis": "connections"|"rate"|a per-request axis's key, "name", "points": [...]}] for series with 2+
    points.
    """
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for point in workload["points"]:
        axis = "rate" if point["profile"] == "open" and point["rate"] is not None else "connections"
        if point["profile"] not in ("closed", "open"):
            continue  # a burst varies connections within one trial: its timeline shows that
        token = f"rate={point['rate']:g}" if axis == "rate" else f"c={point['connections']}"
        rest = " ".join(t for t in point["label"].split() if t != token)
        groups[(point["profile"], axis, rest)].append(point)
        for rows, spec in registry.per_request_axes().items():  # the rows of queries, updates and cached, say
            if point.get(rows) is not None:
                token = spec.label(point[rows])
                groups[(point["profile"], rows, " ".join(t for t in point["label"].split() if t != token))].append(point)
    return [{"profile": profile, "axis": axis, "name": rest or profile,
             "points": sorted(pts, key=lambda p: p[axis])}
            for (profile, axis, rest), pts in groups.items() if len({p[axis] for p in pts}) > 1]
