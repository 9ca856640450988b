"""One framework at one load point: the numbers of its trials folded into the row every report shows.

Centre and interval of req/s (and of p99 for open-loop points, which are compared by latency), latency
percentiles merged from histograms when every trial kept one, server cost, flags, and the optional
facts newer result lines carry (connect time, all responses, warm-up curve, memory method, keep-alive).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import asdict

from ..config import profiles
from ..load import request_errors
from . import stats

NOISY_CV = 0.05
# Trials in two groups further apart than this share of their median: flagged bimodal (docs/method.md).
BIMODAL_GAP = 0.2
PERCENTILES = (("p50", 50.0), ("p75", 75.0), ("p90", 90.0), ("p99", 99.0), ("p99_9", 99.9), ("p99_99", 99.99))
# A row with one of these says more about the measurement than the framework: it is never ranked.
DISQUALIFYING = ("errors", "client-bound", "below-rate", "no-responses", "no-pipelining", "connections-short")
CONNECT_COUNTS = ("refused", "timed_out", "failed", "retried", "syn_retransmitted")


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


def _flags(trials: list[dict], rps: list[float], keepalive: dict | None, groups: tuple | None) -> list[str]:
    flags = {flag for t in trials for flag in t.get("flags", [])}
    if stats.cv(rps) > NOISY_CV:
        flags.add("noisy")
    if groups:
        flags.add("bimodal")
    # Only failed requests: a connection that failed to open is the connect phase's (or, in the window, a
    # connect error shown apart), not a request's.
    if any(_request_errors(t) for t in trials):
        flags.add("errors")
    if any(t.get("connect") and t["connect"]["opened"] < t["connect"]["connections"] for t in trials):
        flags.add("connections-short")
    if any(t.get("target_rate") and (t.get("achieved_rate") or 0) < profiles.BELOW_RATE * t["target_rate"] for t in trials):
        flags.add("below-rate")
    if any(t["requests"] == 0 for t in trials):
        flags.add("no-responses")
    if any("cookieless" in note for t in trials for note in t.get("notes", [])):
        flags.add("cookieless")
    if keepalive and keepalive["connections"] > 1:
        flags.add("closes-connections")
    return sorted(flags)


def _measured(trial: dict) -> float:
    return trial.get("rps_measured", trial["rps"])


def _request_errors(trial: dict) -> int:
    return request_errors(trial["errors"], trial.get("keepalive", True))


def _connect(trials: list[dict]) -> dict | None:
    """The connect phases of the trials: the fewest opened, the median time, the failures of all of them."""
    phases = [t["connect"] for t in trials if t.get("connect")]
    if not phases:
        return None
    return {"connections": phases[0]["connections"], "opened": min(p["opened"] for p in phases),
            "seconds": round(stats.median([p["seconds"] for p in phases]), 3),
            "per_trial_seconds": [round(p["seconds"], 3) for p in phases], "trials": len(phases),
            **{key: sum(p[key] for p in phases) for key in CONNECT_COUNTS}}


def _median_of(trials: list[dict], key: str) -> float | None:
    values = [t[key] for t in trials if t.get(key) is not None]
    return round(stats.median(values), 1) if values else None


def _efficiency(trials: list[dict], per) -> float | None:
    values = [v for v in (per(t) for t in trials) if v is not None]
    return round(stats.median(values), 1) if values else None


def _interval_of(values: list[float]) -> dict:
    found = stats.median_interval(values)
    return {**asdict(found), "low": round(found.low, 1), "high": round(found.high, 1),
            "coverage": round(found.coverage, 4)}


def _ranking(trials: list[dict], rps: list[float], profile: str) -> dict:
    """What the row is ranked on: median req/s, or for an open-loop point (every stack that keeps up sits
    at the target rate) the median over trials of p99 at the achieved rate; None without any p99."""
    if profile != "open":
        return {"metric": "rps", "value": round(stats.median(rps), 1), **_interval_of(rps)}
    p99 = [t["latency_us"]["p99"] for t in trials if t["latency_us"].get("p99") is not None]
    if not p99:
        return {"metric": "p99_us", "value": None, "low": None, "high": None, "kind": None, "coverage": None}
    return {"metric": "p99_us", "value": round(stats.median(p99), 1), **_interval_of(p99)}


def _errors(trials: list[dict]) -> dict[str, int]:
    errors: dict[str, int] = defaultdict(int)
    for t in trials:
        for kind, count in t["errors"].items():
            errors[kind] += count
    return {k: v for k, v in sorted(errors.items()) if v}


def _point_warmup(trials: list[dict]) -> dict:
    """The trial that carries the point's warm-up: the longest (on a tie, the earliest). Only a point's first
    trial (or the first a resumed run measured) warms up until the server is steady; the others warm up
    their new connections for a fraction of a second and have no curve."""
    return max(trials, key=lambda t: (t.get("warmup_s") or 0.0, -t["trial"]))


def _tls(trials: list[dict]) -> dict | None:
    """What the trials negotiated over TLS (native driver): the first one's version, cipher and ALPN (check
    and the driver hold every trial of a point to the same transport), the handshakes of all trials summed,
    and the medians of the trials' handshake times. None for cleartext or a driver that cannot tell."""
    sessions = [t["transport"]["tls"] for t in trials if (t.get("transport") or {}).get("tls")]
    if not sessions:
        return None
    first, timed = sessions[0], [s for s in sessions if s.get("handshake_ms")]

    def median_ms(key: str) -> float | None:
        values = [s["handshake_ms"][key] for s in timed if s["handshake_ms"][key] is not None]
        return round(stats.median(values), 3) if values else None

    def total(key: str) -> int | None:  # h2load counts no handshakes: None, not a made-up 0
        values = [s.get(key) for s in sessions]
        return None if None in values else sum(values)

    return {"version": first["version"], "cipher": first["cipher"], "alpn": first["alpn"],
            "handshakes": total("handshakes"), "resumed": total("resumed"),
            "handshake_ms_p50": median_ms("p50"), "handshake_ms_p99": median_ms("p99")}


def _mix(trials: list[dict]) -> list[dict] | None:
    """A mix's steps (crud's verbs): each one's share of the valid answers and the medians of the trials' p50 and
    p99 latency in microseconds; None without a mix."""
    mixes = [t["mix"] for t in trials if t.get("mix")]
    if not mixes:
        return None
    total = sum(step["requests"] for mix in mixes for step in mix) or 1

    def median_us(name: str, key: str) -> float | None:
        values = [s["latency_us"][key] for mix in mixes for s in mix if s["name"] == name and s["latency_us"][key]]
        return stats.median(values) if values else None

    return [{"name": step["name"], "share": round(sum(s["requests"] for mix in mixes for s in mix
                                                      if s["name"] == step["name"]) / total, 4),
             "p50_us": median_us(step["name"], "p50"), "p99_us": median_us(step["name"], "p99")}
            for step in mixes[0]]


def _optional(trials: list[dict]) -> dict:
    """Facts only newer result lines carry: None when no trial has them."""
    warmed = _point_warmup(trials)
    totals = [t.get("responses_total") for t in trials]
    methods = sorted({t["server_memory_method"] for t in trials if t.get("server_memory_method")})
    connects = [t["connect_s"] for t in trials if t.get("connect_s") is not None]
    answered = [t["bytes_read"] / (t.get("responses_total") or t["requests"]) for t in trials
                if t.get("bytes_read") is not None and (t.get("responses_total") or t["requests"])]
    # Only where the load reconnected on purpose: every native trial says 0 otherwise.
    reconnects = [t["reconnects"] for t in trials if t.get("requests_per_connection") and t.get("reconnects") is not None]
    return {"connect_s": round(stats.median(connects), 3) if connects else None,
            # Bytes on the wire per answer (headers and body, as sent: compressed where it was).
            "bytes_per_answer": round(stats.median(answered)) if answered else None,
            "reconnects": sum(reconnects) if reconnects else None, "mix": _mix(trials),
            "responses_total": sum(totals) if None not in totals else None,
            "memory_method": ", ".join(methods) or None,
            "warmup_s": warmed.get("warmup_s"), "warmup_curve": warmed.get("warmup_curve"), "tls": _tls(trials)}


def build(trials: list[dict], profile: str, keepalive: dict | None) -> dict:
    """The row of one framework at one load point; `keepalive` is what its verification measured."""
    trials = sorted(trials, key=lambda t: t["trial"])
    rps = [t["rps"] for t in trials]
    groups = stats.two_groups(rps, BIMODAL_GAP)  # None unless the trials fall in two groups
    errors = _errors(trials)
    first = trials[0]
    return {
        "framework": first["framework"], "display": first.get("display", first["framework"]),
        "language": first.get("language"), "driver": first["driver"], "trials": len(trials),
        "outside_contract": first.get("outside_contract"),
        "rps": {"median": round(stats.median(rps), 1), "min": round(min(rps), 1), "max": round(max(rps), 1),
                "cv": round(stats.cv(rps), 4),
                "per_trial": [round(v, 1) for v in rps],
                "measured_median": round(stats.median([_measured(t) for t in trials]), 1),
                "groups": [[round(min(g), 1), round(max(g), 1), len(g)] for g in groups or ()]},
        "ranking": _ranking(trials, rps, profile),
        "latency_us": _latency(trials),
        "server_cpu_percent": _median_of(trials, "server_cpu_percent"),
        "database_cpu_percent": _median_of(trials, "database_cpu_percent"),
        "client_cpu_percent": _median_of(trials, "client_cpu_percent"),
        "server_rss_peak_mb": max(t["server_rss_peak_mb"] for t in trials),
        # What the server did with its CPU and memory: the measured req/s, not the link-adjusted (phases.py).
        "requests_per_cpu_second": _efficiency(
            trials, lambda t: stats.per_cpu_second(_measured(t), t["server_cpu_percent"])),
        "rps_per_mb": _efficiency(trials, lambda t: stats.per_mb(_measured(t), t["server_rss_peak_mb"])),
        "requests": sum(t["requests"] for t in trials),
        "errors": sum(_request_errors(t) for t in trials), "errors_by_kind": errors, "connect": _connect(trials),
        "flags": _flags(trials, rps, keepalive, groups), "keepalive": keepalive,
        "target_rate": first.get("target_rate"),
        "achieved_rate": _median_of(trials, "achieved_rate"),
        "timeline": _median_trial(trials).get("timeline"),
        **_optional(trials),
    }
