"""The tables of a workload as text cells, shared by the terminal, markdown and HTML reports.

Closed-loop points (and bursts) are ranked on median req/s, open-loop points on p99 at the achieved
rate, so each kind gets its own table. Ranked rows come first; the ceiling (baseline), flagged rows and
rows outside the contract follow unranked, each spelled out in the notes under the table.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..load.base import MANY_CONNECTIONS
from ..workloads import registry
from . import fmt
from .result import DISQUALIFYING
from .summary import STANDINGS

STANDING_CELL = {"baseline": "ceiling", "flagged": "flagged", "outside_contract": "apart"}
CLOSED_TITLE = ("closed loop, ranked by median req/s; p50 and p99 are closed-loop latency (each connection "
                "waits for its answer, so the queueing an open loop shows is not in them)")
OPEN_TITLE = ("open loop, compared by p99 latency at the achieved rate, lower is better (every stack that "
              "keeps up serves the target rate, so req/s cannot tell them apart)")


@dataclass(frozen=True)
class Table:
    title: str
    header: tuple[str, ...]
    left: frozenset[int]  # text columns; the others are numbers and align right
    rows: list[tuple[str, ...]]
    notes: list[str]


def _interval_header(results: list[dict]) -> str:
    kinds = {r["ranking"]["kind"] for r in results if r["ranking"]["kind"]}
    return {frozenset({"ci"}): "95% CI", frozenset({"range"}): "min-max"}.get(frozenset(kinds), "interval")


def interval_notes(results: list[dict]) -> list[str]:
    """What the interval column is, for each trial count in the table, and how ties follow from it."""
    notes = []
    for trials, kind, coverage in sorted({(r["trials"], r["ranking"]["kind"], r["ranking"]["coverage"])
                                          for r in results if r["ranking"]["kind"]}):
        if kind == "ci":
            notes.append(f"95% CI ({trials} trials): the order-statistic (distribution-free) interval of the "
                         f"median, which holds it with probability {100 * coverage:.1f} %")
        elif trials == 1:
            notes.append("1 trial: no interval; rows tie only on equal values")
        else:
            notes.append(f"min-max ({trials} trials): the range of the trials, not a 95 % interval: it holds "
                         f"the median only {100 * coverage:.0f} % of the time (6 or more trials give one)")
    overlap = ("ranks marked = form an overlap group: their intervals reach the group's first, so their order is not "
               "known; req/s and its interval print only the digits the interval supports")
    return notes + [overlap] if notes else notes


def _memory(results: list[dict]) -> tuple[str, list[str]]:
    methods = sorted({r["memory_method"] for r in results if r["memory_method"]})
    if not methods:
        return "RSS MB", []
    return "mem MB", [f"mem MB: peak server memory, measured as {', '.join(methods)}"]


def _rank_cell(result: dict) -> str:
    return result["rank_label"] or STANDING_CELL[result["standing"]]


def _unranked_note(point: dict, result: dict) -> str:
    where = f"{result['framework']} at {point['label']}"
    if result["standing"] == "baseline":
        return f"ceiling: {where} is the baseline the stacks are measured against, not a contestant"
    if result["standing"] == "outside_contract":
        return f"apart, outside the contract and not ranked: {where}: {result['outside_contract']}"
    reasons = [fmt.flag_text(flag, result) for flag in result["flags"] if flag in DISQUALIFYING]
    return f"flagged, not ranked: {where}: " + ("; ".join(reasons) or "no p99 was recorded")


def _flag_notes(rows: list[tuple[dict, dict]]) -> list[str]:
    """The informational flags (those that do not stop a row from being ranked), spelled out once each."""
    texts = [(f"{r['framework']}: " if flag == "closes-connections" else "") + fmt.flag_text(flag, r)
             for _, r in rows for flag in r["flags"] if flag not in DISQUALIFYING]
    return list(dict.fromkeys(texts))


def _closed_row(point: dict, r: dict) -> tuple[str, ...]:
    ranking, lat, median = r["ranking"], r["latency_us"], r["rps"]["median"]
    return (_rank_cell(r), r["framework"], point["label"], fmt.measured(median, ranking["low"], ranking["high"]),
            fmt.span(ranking["low"], ranking["high"], median), fmt.cv(r["rps"]["cv"]), fmt.ms(lat["p50"]), fmt.ms(lat["p99"]),
            fmt.count(r["errors"]), fmt.percent(r["server_cpu_percent"]), fmt.count(r["server_rss_peak_mb"]),
            fmt.count(r["requests_per_cpu_second"]), ",".join(r["flags"]))


def _open_row(point: dict, r: dict) -> tuple[str, ...]:
    ranking = r["ranking"]
    interval = "-" if ranking["low"] is None else f"{fmt.ms(ranking['low'])}-{fmt.ms(ranking['high'])}"
    return (_rank_cell(r), r["framework"], point["label"], fmt.count(r["target_rate"]), fmt.count(r["achieved_rate"]),
            fmt.ms(ranking["value"]), interval, fmt.ms(r["latency_us"]["p50"]), fmt.count(r["errors"]),
            fmt.percent(r["server_cpu_percent"]), fmt.count(r["server_rss_peak_mb"]), ",".join(r["flags"]))


def _table(points: list[dict], is_open: bool) -> Table:
    pairs = [(p, r) for p in points for r in p["results"]]
    ranked = [(p, r) for p, r in pairs if r["standing"] == "ranked"]
    rest = sorted(((p, r) for p, r in pairs if r["standing"] != "ranked"),
                  key=lambda pair: STANDINGS.index(pair[1]["standing"]))
    results = [r for _, r in pairs]
    interval, memory = _interval_header([r for _, r in ranked] or results), _memory(results)
    if is_open:
        header = ("rank", "framework", "load", "target req/s", "achieved req/s", "p99 ms", f"p99 {interval}",
                  "p50 ms", "errors", "CPU %", memory[0], "flags")
        extra = ["p99 ms: the median over trials of each trial's p99; p50 from all trials"]
    else:
        header = ("rank", "framework", "load", "req/s", interval, "CV", "p50 ms", "p99 ms", "errors", "CPU %",
                  memory[0], "req/CPU-s", "flags")
        extra = []
    make = _open_row if is_open else _closed_row
    notes = [*interval_notes([r for _, r in ranked]), *extra, *memory[1], *_flag_notes(pairs),
             *(_unranked_note(p, r) for p, r in rest)]
    return Table(OPEN_TITLE if is_open else CLOSED_TITLE, header, frozenset({0, 1, 2, len(header) - 1}),
                 [make(p, r) for p, r in ranked + rest], notes)


def main_tables(workload: dict) -> list[Table]:
    closed = [p for p in workload["points"] if p["profile"] != "open"]
    opened = [p for p in workload["points"] if p["profile"] == "open"]
    return [_table(points, is_open) for points, is_open in ((closed, False), (opened, True)) if points]


def _connect_cell(point: dict, result: dict) -> str | None:
    """The connect phase where it was measured ("10,000 open in 2.1 s"); where a driver opens its connections
    inside its measured time at a point with many of them, that it cannot tell; else the time alone (result
    lines from before the phase), or nothing."""
    if result.get("connect"):
        return fmt.connect_phase(result["connect"])
    if result["driver"] in ("wrk", "ab") and point["connections"] >= MANY_CONNECTIONS:
        return f"not separated ({result['driver']})"
    return None if result["connect_s"] is None else f"{result['connect_s']:.3g}"


def _ceiling_share(spec, point: dict, result: dict) -> float | None:
    """The row's req/s as a share of the most its workload allows at its connections (async: connections / wait)."""
    if spec is None or spec.ceiling is None or point["profile"] != "closed":
        return None
    return result["rps"]["median"] / spec.ceiling(point["connections"])


def _messages_per_s(spec, point: dict, result: dict) -> float | None:
    """A streaming workload's messages a second: its calls a second times the messages of each (its axis)."""
    if spec is None or not spec.streams_messages or point.get(spec.axis.key) is None:
        return None
    return result["rps"]["median"] * point[spec.axis.key]


def extras(workload: dict) -> Table | None:
    """The connect phase, every response and the warm-up, for rows whose result lines carry them; bytes per answer,
    share of the ceiling and reconnects where the workload or the load has them."""
    pairs = [(p, r) for p in workload["points"] for r in p["results"]]
    spec = registry.REGISTRY.get(workload["workload"])
    values = {"connect": lambda p, r: _connect_cell(p, r), "responses_total": lambda p, r: r["responses_total"],
              "warmup_s": lambda p, r: r["warmup_s"], "warmup_curve": lambda p, r: r["warmup_curve"],
              "tls": lambda p, r: r.get("tls"),
              "bytes_per_answer": lambda p, r: r.get("bytes_per_answer") if spec and spec.bytes_shown else None,
              "ceiling": lambda p, r: _ceiling_share(spec, p, r), "reconnects": lambda p, r: r.get("reconnects"),
              "mix": lambda p, r: r.get("mix"), "messages": lambda p, r: _messages_per_s(spec, p, r)}
    # Result lines from before the connect phase carry its time alone.
    phased = any(r.get("connect") or (r["connect_s"] is None and _connect_cell(p, r)) for p, r in pairs)
    columns = [(key, name) for key, name in (("connect", "connect phase" if phased else "connect s"),
                                             ("responses_total", "responses (all)"),
                                             ("warmup_s", "warm-up s"), ("warmup_curve", "warm-up req/s"),
                                             ("tls", "TLS: negotiated, handshakes"),
                                             ("bytes_per_answer", "bytes/answer"), ("ceiling", "of ceiling"),
                                             ("reconnects", "reconnects"), ("mix", "per request kind: p50/p99 ms"),
                                             ("messages", "messages/s"))
               if any(values[key](p, r) is not None for p, r in pairs)]
    if not columns:
        return None

    def cell(key: str, value) -> str:
        if value is None or value == []:  # a warm-up under a second has no whole second to show
            return "-"
        if key == "connect":
            return value
        if key == "warmup_curve":
            return f"{len(value)} s {fmt.sparkline(value)} {fmt.count(max(value, default=0))} max"
        if key == "tls":
            return _tls_cell(value)
        if key == "ceiling":
            return f"{100 * value:.0f} %"
        if key == "mix":
            return ", ".join(f"{s['name']} {fmt.ms(s['p50_us'])}/{fmt.ms(s['p99_us'])}" for s in value)
        return (fmt.count(value) if key in ("responses_total", "bytes_per_answer", "reconnects", "messages")
                else f"{value:.3g}")

    rows = [(r["framework"], p["label"], *(cell(key, values[key](p, r)) for key, _ in columns)) for p, r in pairs]
    header = ("framework", "load", *(name for _, name in columns))
    notes = ["responses (all): every response the load generator read, valid or not; req/s counts the valid "
             "ones only"] if any(key == "responses_total" for key, _ in columns) else []
    if phased:
        notes.append("connect phase: every connection opened (and upgraded) before the first request; the median "
                     "of the trials' times, the fewest opened, the failures of all trials; never in the latency or "
                     "the errors (docs/method.md)")
    if any(key == "warmup_s" for key, _ in columns):
        notes.append("warm-up: the one before the point's first trial, until throughput was steady or the cap; "
                     "later trials only warm up their new connections")
    if any(key == "bytes_per_answer" for key, _ in columns):
        notes.append("bytes/answer: bytes read per answer, headers and body as sent (compressed where it was), the "
                     "median over trials: a stack that compresses less sends more for each answer")
    if any(key == "ceiling" for key, _ in columns):
        notes.append("of ceiling: req/s as a share of the most the workload allows at the point's connections "
                     "(async: each answer waits 15 ms, so connections / 15 ms); far below it, requests wait for a "
                     "worker")
    if any(key == "reconnects" for key, _ in columns):
        notes.append("reconnects: connections the load closed after requests_per_connection answers and opened "
                     "again, all trials together; the first request on each new one carries its connect")
    if any(key == "mix" for key, _ in columns):
        notes.append("per request kind: a mix's steps (crud: 14 reads of one item, 2 pages, 2 updates, a create and "
                     "a delete in every 20 requests), each one's p50/p99 latency, the medians over trials")
    if any(key == "messages" for key, _ in columns):
        notes.append("messages/s: the answers' messages a second, the median req/s (calls) times the messages of "
                     "each call, which shootout-load counts in every valid answer")
    title = "connections, responses and warm-up"
    if any(key == "tls" for key, _ in columns):
        title += ", TLS"
        notes.append("TLS: version, cipher and ALPN as negotiated; the handshakes of all trials (connect phase "
                     "included), how many resumed a session, and the medians of the trials' handshake p50/p99")
    left = {0, 1} | {i + 2 for i, (key, _) in enumerate(columns)
                     if key in ("warmup_curve", "tls") or (key == "connect" and phased)}
    return Table(title, header, frozenset(left), rows, notes)


def _tls_cell(tls: dict) -> str:
    """"TLSv1_3 TLS13_AES_256_GCM_SHA384 h2; 64 handshakes (0 resumed), 1.2/3.4 ms"."""
    text = " ".join(str(part) for part in (tls["version"], tls["cipher"], tls["alpn"]) if part)
    if tls["handshakes"]:
        text += f"; {fmt.count(tls['handshakes'])} handshakes ({fmt.count(tls['resumed'])} resumed)"
    if None not in (tls["handshake_ms_p50"], tls["handshake_ms_p99"]):
        text += f", {tls['handshake_ms_p50']:.3g}/{tls['handshake_ms_p99']:.3g} ms"
    return text
