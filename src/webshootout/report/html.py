"""report.html: one self-contained page (inline CSS and SVG, no script, no network) for a run."""

from __future__ import annotations

from html import escape

from . import fmt, overview, svg, tables
from .summary import sweeps
from ..workloads import registry

# Spectrum x positions: log10(1 / (1 - q)), so every extra "9" of the percentile gets the same width.
SPECTRUM = (("p50", 0.301), ("p75", 0.602), ("p90", 1.0), ("p99", 2.0), ("p99_9", 3.0), ("p99_99", 4.0))

CSS = """
body { font: 14px/1.45 system-ui, sans-serif; color: #111827; background: #f3f4f6; margin: 0; }
main { max-width: 1320px; margin: 0 auto; padding: 24px; }
h1 { font-size: 26px; margin: 0 0 4px; } h2 { font-size: 21px; margin: 32px 0 8px; }
h3 { font-size: 14px; margin: 0 0 6px; color: #374151; }
.card { background: #fff; border-radius: 8px; padding: 16px 18px; margin: 12px 0;
        box-shadow: 0 1px 2px rgba(0,0,0,.08); }
.grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(640px, 1fr)); gap: 12px; }
.grid .card { margin: 0; }
.meta { display: grid; grid-template-columns: max-content 1fr; gap: 2px 14px; margin: 0; }
.meta dt { color: #6b7280; } .meta dd { margin: 0; }
pre { background: #111827; color: #f9fafb; padding: 10px 12px; border-radius: 6px; overflow-x: auto; }
table { border-collapse: collapse; width: 100%; font-variant-numeric: tabular-nums; }
th, td { padding: 4px 8px; border-bottom: 1px solid #e5e7eb; text-align: right; white-space: nowrap; }
th { background: #f9fafb; font-weight: 600; } td.l, th.l { text-align: left; }
.lead { font-size: 16px; } .lead li { margin: 3px 0; }
.note { color: #6b7280; font-size: 12.5px; }
.bad { border-left: 4px solid #dc2626; }
details pre { font-size: 12px; max-height: 200px; }
"""


def _colors(summary: dict) -> dict[str, str]:
    """One colour per framework for the whole page, by id, so a framework keeps it whatever its rank."""
    names = sorted({r["framework"] for w in summary["workloads"] for p in w["points"] for r in p["results"]})
    return {name: svg.PALETTE[i % len(svg.PALETTE)] for i, name in enumerate(names)}


def _card(title: str, content: str, extra: str = "") -> str:
    return f'<section class="card {extra}"><h3>{escape(title)}</h3>{content}</section>'


def _header(run: dict) -> str:
    machine, settings = run["machine"], run["settings"]
    rows = [
        ("Created", f"{run['created']} &middot; webshootout {escape(str(run['webshootout']))} &middot; "
                    f"commit <code>{escape(str(run['git_commit']))}</code>"),
        ("Machine", escape(f"{machine.get('cpu_model')}, {machine.get('cpus')} CPUs, {machine.get('memory_gb')} GB, "
                           f"Linux {machine.get('kernel')}")),
        ("Pinning", escape(fmt.pinning_text(run))),
        *([("Hosts", "<br>".join(escape(line) for line in fmt.topology_lines(run)))] if run.get("topology") else []),
        ("Load", escape(f"{settings.get('driver')}: {settings.get('trials')} trials of {settings.get('duration')} s "
                        f"after {settings.get('warmup')} s warm-up; load points {', '.join(run['load_points'])}")),
        *([("Machine speed", escape(fmt.speed_text(run)))] if fmt.speed_text(run) else []),
        *([("Adjusted", escape(fmt.adjustment_text(run)))] if fmt.adjustment_text(run) else []),
        ("Between runs", escape(fmt.BETWEEN_RUNS)),
        ("Tools", escape(" · ".join(f"{k} {v}" for k, v in sorted(run["tools"].items())))),
    ]
    meta = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return (f'<dl class="meta">{meta}</dl><p class="note">Reproduce this run:</p>'
            f'<pre>{escape(str(run["command"]))}</pre>')


# A leader's number must be one number: a row whose trials vary this much, or fall in two groups, is not named.
DOUBTFUL = ("noisy", "bimodal")


def _value(row: dict) -> str:
    """The ranked value with the digits its interval supports: "229k req/s" or "p99 0.802 ms"."""
    ranking = row["ranking"]
    if ranking["metric"] == "p99_us":
        return f"p99 {fmt.ms(ranking['value'])} ms at the achieved rate"
    return f"{fmt.measured(ranking['value'], ranking['low'], ranking['high'])} req/s"


def _times(top: dict, last: dict) -> str:
    """How many times the last one's req/s the leader serves, with the interval the two rows' intervals give:
    "3.2× [2.9-3.6]"."""
    a, b = top["ranking"], last["ranking"]
    ratio, low, high = a["value"] / b["value"], a["low"] / b["high"], a["high"] / b["low"]
    return f"{fmt.measured(ratio, low, high)}&times; [{fmt.span(low, high, ratio)}]"


def _doubts(rows: list[dict]) -> list[str]:
    """"Actix Web noisy (trials vary 12%)" for each row of these flagged noisy or bimodal."""
    return [escape(r["display"]) + (f" noisy (trials vary {fmt.cv(r['rps']['cv'])})" if "noisy" in r["flags"]
                                     else " bimodal (its trials fall in two groups)")
            for r in rows if set(DOUBTFUL) & set(r["flags"])]


def _lead_item(workload: dict) -> str:
    """Who leads the workload's first point that ranked anyone, and by how much. Never a baseline (not ranked)
    nor a row flagged noisy or bimodal: then it says so instead of naming a leader. A first place shared by
    rows whose intervals overlap is an overlap group, said so."""
    name = escape(workload["workload"])
    point = next((p for p in workload["points"] if any(r["rank"] for r in p["results"])), None)
    if point is None:
        return f"{name}: no row could be ranked (see the notes under its tables)"
    ranked = [r for r in point["results"] if r["rank"]]
    top, last = [r for r in ranked if r["rank"] == 1], ranked[-1]
    where = f"{name} at {escape(point['label'])}"
    names = " and ".join(f"<b>{escape(r['display'])}</b>" for r in top)
    doubts = _doubts(top)
    if doubts:
        text = (f"{where}: no leader named: the first place{' (an overlap group: ' + names + ')' if len(top) > 1 else ''}"
                f" holds {', '.join(doubts)}, whose trials do not make one number (see its table)")
    elif len(top) > 1:
        text = (f"{where}: {names} lead as one overlap group (their intervals overlap, so their order is not "
                f"known), {', '.join(_value(r) for r in top)}")
    else:
        text = f"{where}: {names} leads with {_value(top[0])}"
    if not doubts and last["rank"] > 1 and top[0]["ranking"]["metric"] == "rps" and last["ranking"]["low"]:
        text += f"; {_times(top[0], last)} the last, {escape(last['display'])}"
    elif not doubts and last["rank"] > 1:
        text += f"; the last, {escape(last['display'])}, {_value(last)}"
    ceilings = [r for r in point["results"] if r["standing"] == "baseline"]
    text += "".join(f"; ceiling: {escape(r['display'])} {_value(r)}"
                    + (f" ({CLIENT_BOUND})" if "client-bound" in r["flags"] else "") for r in ceilings)
    return text + _unranked(point)


# What a reader must know before quoting who leads: a row faster than the load could drive is not slower.
CLIENT_BOUND = "client-bound: answered faster than the load CPUs can measure, so its req/s is the client's"


def _unranked(point: dict) -> str:
    """The rows the verdict could not rank, by name, and why."""
    why = [f"{escape(r['display'])} ({CLIENT_BOUND if 'client-bound' in r['flags'] else ', '.join(r['flags'])})"
           for r in point["results"] if r["standing"] == "flagged"]
    return f"; not ranked: {'; '.join(why)}" if why else ""


def _lead(summary: dict) -> str:
    """The first thing a reader sees: ranked rows only, never a flagged, noisy or bimodal row or the baseline."""
    items = [f"<li>{_lead_item(w)}</li>" for w in summary["workloads"]]
    return f'<ul class="lead">{"".join(items)}</ul>' if items else "<p>No trial was measured.</p>"


def _html_table(found: tables.Table) -> str:
    head = "".join(f'<th class="{"l" if i in found.left else ""}">{escape(h)}</th>' for i, h in enumerate(found.header))
    rows = []
    for row in found.rows:
        tds = "".join(f'<td class="{"l" if i in found.left else ""}">{escape(c)}</td>' for i, c in enumerate(row))
        rows.append(f"<tr>{tds}</tr>")
    notes = "".join(f"<li>{escape(note)}</li>" for note in found.notes)
    return (f'<p class="note"><b>{escape(found.title)}</b></p><table><thead><tr>{head}</tr></thead>'
            f"<tbody>{''.join(rows)}</tbody></table>" + (f'<ul class="note">{notes}</ul>' if notes else ""))


def _table(workload: dict) -> str:
    found = [*tables.main_tables(workload), *filter(None, [tables.extras(workload)])]
    return "".join(_html_table(t) for t in found) + f'<p class="note">{escape(fmt.latency_note(workload))}.</p>'


def _bar_label(result: dict) -> str:
    return f"{result['rank_label'] or tables.STANDING_CELL[result['standing']]}  {result['display']}"


def _point_bars(point: dict, colors: dict) -> str:
    """Every row's bar (req/s, or p99 for an open-loop point), the ceiling's also as a dashed line."""
    rows = point["results"]
    if point["profile"] == "open":
        items = [svg.Bar(_bar_label(r), r["ranking"]["value"], colors[r["framework"]], r["framework"],
                         r["ranking"]["low"], r["ranking"]["high"]) for r in rows if r["ranking"]["value"] is not None]
        return svg.bars(f"p99 at the achieved rate, {point['label']}", items, lambda us: f"{fmt.ms(us)} ms")
    items = [svg.Bar(_bar_label(r), r["rps"]["median"], colors[r["framework"]], r["framework"], r["rps"]["min"],
                     r["rps"]["max"], fmt.measured(r["rps"]["median"], r["ranking"]["low"], r["ranking"]["high"]))
             for r in rows]
    baseline = next((r for r in rows if r["standing"] == "baseline"), None)
    ceiling = svg.Ceiling(baseline["display"], baseline["rps"]["median"]) if baseline else None
    return svg.bars(f"req/s at {point['label']}", items, fmt.count, ceiling)


def _row_label(point: dict, result: dict, many: bool) -> str:
    return f"{result['display']} {point['label']}" if many else result["display"]


def _cost_bars(workload: dict, colors: dict, key: str, fmt_value, title: str) -> str:
    many = len(workload["points"]) > 1
    items = [svg.Bar(_row_label(p, r, many), r[key], colors[r["framework"]], r["framework"])
             for p in workload["points"] for r in p["results"] if r[key] is not None]
    return svg.bars(title, items, fmt_value) if items else '<p class="note">not recorded</p>'


def _ms(us: float) -> str:
    return f"{fmt.ms(us)} ms"


def _latency_name(point: dict) -> str:
    return "latency at the achieved rate" if point["profile"] == "open" else "closed-loop latency"


def _spectrum(point: dict, colors: dict) -> str:
    series = [svg.Series(r["display"], colors[r["framework"]],
                         [(x, r["latency_us"][key]) for key, x in SPECTRUM if r["latency_us"][key]])
              for r in point["results"]]
    if not any(s.points for s in series):  # no trial of the point got a valid answer
        return '<p class="note">no latency: no valid answer</p>'
    ticks = [(x, fmt.PERCENTILE_NAMES[key]) for key, x in SPECTRUM]
    return svg.lines(f"{_latency_name(point)}: latency percentiles at {point['label']}", series,
                     svg.Axes(ticks, _ms, "percentile", "latency (ms, log scale)", y_log=True))


def _sweep(sweep: dict, colors: dict, what: str) -> str:
    axis = sweep["axis"]
    by_framework: dict[str, list] = {}
    names = {}
    for point in sweep["points"]:
        for r in point["results"]:
            value = r["rps"]["median"] if what == "rps" else r["latency_us"]["p99"]
            by_framework.setdefault(r["framework"], []).append((point[axis], value))
            names[r["framework"]] = r["display"]
    series = [svg.Series(names[f], colors[f], pts) for f, pts in by_framework.items()]
    ticks = [(p[axis], f"{p[axis]:g}") for p in sweep["points"]]
    label = {"connections": "connections", "rate": "target rate (req/s)",
             **{key: spec.per_request for key, spec in registry.per_request_axes().items()}}[axis]
    if what == "rps":
        return svg.lines(f"req/s against {label}", series, svg.Axes(ticks, fmt.count, label, "req/s (median)", x_log=True))
    latency = "closed-loop p99" if sweep["profile"] == "closed" else "p99"
    return svg.lines(f"p99 against {label}", series, svg.Axes(ticks, _ms, label, f"{latency} (ms, log scale)",
                                                             x_log=True, y_log=True))


def _timeline(point: dict, colors: dict, key: str) -> str:
    results = [r for r in point["results"] if r["timeline"]]
    series = [svg.Series(r["display"], colors[r["framework"]],
                         [(s["second"], s.get(key)) for s in r["timeline"]]) for r in results]
    seconds = sorted({s["second"] for r in results for s in r["timeline"]})
    ticks = [(s, f"{s:g}") for s in seconds]
    x_label = "second of the trial (median trial)"
    if key == "requests":
        return svg.lines(f"requests per second, {point['label']}", series,
                         svg.Axes(ticks, fmt.count, x_label, "requests in that second"))
    return svg.lines(f"p99 per second, {point['label']}", series,
                     svg.Axes(ticks, _ms, x_label, "p99 (ms, log scale)", y_log=True))


def _memory_card(workload: dict, colors: dict) -> str:
    results = [r for p in workload["points"] for r in p["results"]]
    method = ", ".join(sorted({r["memory_method"] for r in results if r["memory_method"]})) or \
        "RSS summed over the process tree"
    return _card(f"Server peak memory (MB; {method})",
                 _cost_bars(workload, colors, "server_rss_peak_mb", lambda v: f"{v:,.0f} MB", f"peak memory MB ({method})"))


def _point_cards(point: dict, colors: dict) -> list[str]:
    if point["profile"] == "open":
        title = (f"Latency at the achieved rate, {point['label']}: median of the trials' p99, error bars: its "
                 "interval (see the table), rank")
    else:
        title = f"Throughput, {point['label']}: median req/s, min-max error bars, rank"
    spectrum = f"{_latency_name(point).capitalize()} spectrum, {point['label']} (p50 .. p99.99, log scale)"
    return [_card(title, _point_bars(point, colors)), _card(spectrum, _spectrum(point, colors))]


def _timeline_cards(point: dict, colors: dict) -> list[str]:
    if point["profile"] != "burst" or not any(r["timeline"] for r in point["results"]):
        return []
    cards = [_card(f"Timeline, {point['label']}: requests per second", _timeline(point, colors, "requests"))]
    if any(s.get("p99_us") for r in point["results"] if r["timeline"] for s in r["timeline"]):
        cards.append(_card(f"Timeline, {point['label']}: p99 per second", _timeline(point, colors, "p99_us")))
    return cards


def _workload(workload: dict, colors: dict) -> str:
    cards = [card for point in workload["points"] for card in _point_cards(point, colors)]
    for sweep in sweeps(workload):
        cards.append(_card(f"req/s against {sweep['axis']} ({sweep['profile']})", _sweep(sweep, colors, "rps")))
        cards.append(_card(f"p99 against {sweep['axis']} ({sweep['profile']})", _sweep(sweep, colors, "p99")))
    cards.append(_card("Server CPU % (100 = one CPU busy)",
                       _cost_bars(workload, colors, "server_cpu_percent", lambda v: f"{v:.0f} %", "server CPU %")))
    cards.append(_memory_card(workload, colors))
    cards.append(_card("Requests per server CPU-second (more is cheaper)",
                       _cost_bars(workload, colors, "requests_per_cpu_second", fmt.count, "requests per CPU-second")))
    cards += [card for point in workload["points"] for card in _timeline_cards(point, colors)]
    lines = "".join(f"<li>{escape(line)}</li>" for line in fmt.sustainable_lines(workload))
    capacity = _card("Sustainable throughput (highest open-loop rate with p99 under the SLO)",
                     f"<ul>{lines}</ul>") if lines else ""
    return (f'<h2 id="{escape(workload["workload"])}">{escape(workload["workload"])}</h2>'
            f'{_card("Results", _table(workload))}{capacity}<div class="grid">{"".join(cards)}</div>')


def _not_measured(items: list[dict]) -> str:
    if not items:
        return ""
    rows = []
    for item in items:
        tail = f"<details><summary>log tail</summary><pre>{escape(item['log_tail'])}</pre></details>" \
            if item["log_tail"] else ""
        rows.append(f"<li><b>{escape(item['framework'])}</b>{' ' + escape(item['workload']) if item['workload'] else ''}"
                    f": {escape(item['what'])}: {escape(item['reason'])}{tail}</li>")
    return f'<h2 id="not-measured">Not measured</h2>{_card("Unavailable, failed or faulted", "<ul>" + "".join(rows) + "</ul>", "bad")}'


def _frameworks(run: dict) -> str:
    rows = "".join(f"<tr><td class='l'>{escape(fid)}</td><td class='l'>{escape(str(f.get('display')))}</td>"
                   f"<td class='l'>{escape(str(f.get('language')))}</td><td class='l'>{escape(str(f.get('version')))}</td>"
                   f"<td class='l'>{escape(str(f.get('server') or ''))}</td></tr>"
                   for fid, f in sorted(run["frameworks"].items()))
    head = "".join(f"<th class='l'>{h}</th>" for h in ("id", "name", "language", "version", "server"))
    return _card("Frameworks (pinned versions)", f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>")


def render(summary: dict) -> str:
    colors = _colors(summary)
    run = summary["run"]
    nav = " &middot; ".join(f'<a href="#{escape(w["workload"])}">{escape(w["workload"])}</a>'
                            for w in summary["workloads"])
    body = [f"<h1>webshootout report</h1><p class='note'>{nav}</p>",
            _card("At a glance", _lead(summary)),
            *([_card("TechEmpower overview", _html_table(found))] if (found := overview.table(summary)) else []),
            _card("How this was measured", _header(run))]
    body += [_workload(w, colors) for w in summary["workloads"]]
    body.append(_not_measured(summary["not_measured"]))
    body.append(_frameworks(run))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>webshootout report {escape(str(run['created']))}</title><style>{CSS}</style></head>"
            f'<body><main>{"".join(body)}</main></body></html>\n')
