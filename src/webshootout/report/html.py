"""report.html: one self-contained page (inline CSS and SVG, no script, no network) for a run."""

from __future__ import annotations

from html import escape

from . import fmt, svg
from .summary import sweeps

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
.flag { display: inline-block; background: #fef3c7; color: #92400e; border-radius: 4px; padding: 0 5px;
        margin-right: 3px; font-size: 12px; }
.lead { font-size: 16px; } .lead li { margin: 3px 0; }
.note { color: #6b7280; font-size: 12.5px; }
.bad { border-left: 4px solid #dc2626; }
details pre { font-size: 12px; max-height: 200px; }
"""


def _colors(summary: dict) -> dict[str, str]:
    """One colour per framework for the whole page, in order of first appearance."""
    names: list[str] = []
    for workload in summary["workloads"]:
        for point in workload["points"]:
            names += [r["framework"] for r in point["results"] if r["framework"] not in names]
    return {name: svg.PALETTE[i % len(svg.PALETTE)] for i, name in enumerate(names)}


def _card(title: str, content: str, extra: str = "") -> str:
    return f'<section class="card {extra}"><h3>{escape(title)}</h3>{content}</section>'


def _header(run: dict) -> str:
    machine, pinning, settings = run["machine"], run["pinning"], run["settings"]
    rows = [
        ("Created", f"{run['created']} &middot; webshootout {escape(str(run['webshootout']))} &middot; "
                    f"commit <code>{escape(str(run['git_commit']))}</code>"),
        ("Machine", escape(f"{machine.get('cpu_model')}, {machine.get('cpus')} CPUs, {machine.get('memory_gb')} GB, "
                           f"Linux {machine.get('kernel')}")),
        ("Pinning", escape(f"server and PostgreSQL on CPUs {pinning.get('server_cpus')}, "
                           f"load generator on CPUs {pinning.get('load_cpus')}")),
        ("Load", escape(f"{settings.get('driver')}: {settings.get('trials')} trials of {settings.get('duration')} s "
                        f"after {settings.get('warmup')} s warm-up; load points {', '.join(run['load_points'])}")),
        ("Tools", escape(" · ".join(f"{k} {v}" for k, v in sorted(run["tools"].items())))),
    ]
    meta = "".join(f"<dt>{k}</dt><dd>{v}</dd>" for k, v in rows)
    return (f'<dl class="meta">{meta}</dl><p class="note">Reproduce this run:</p>'
            f'<pre>{escape(str(run["command"]))}</pre>')


def _lead(summary: dict) -> str:
    """The first thing a reader sees: who leads each workload and by how much, ties said plainly."""
    items = []
    for workload in summary["workloads"]:
        point = workload["points"][0]
        top = [r for r in point["results"] if r["rank"] == 1]
        rest = [r for r in point["results"] if r["rank"] > 1]
        names = " and ".join(f"<b>{escape(r['display'])}</b>" for r in top)
        tie = " (tied: their intervals overlap)" if len(top) > 1 else ""
        text = f"{escape(workload['workload'])} at {escape(point['label'])}: {names} lead{'' if len(top) > 1 else 's'}" \
               f" with {fmt.count(top[0]['rps']['median'])} req/s{tie}"
        if rest:
            ratio = top[0]["rps"]["median"] / rest[-1]["rps"]["median"] if rest[-1]["rps"]["median"] else 0
            text += f"; {fmt.ratio(ratio)}&times; the last, {escape(rest[-1]['display'])}"
        items.append(f"<li>{text}</li>")
    return f'<ul class="lead">{"".join(items)}</ul>' if items else "<p>No trial was measured.</p>"


def _table(workload: dict) -> str:
    head = "".join(f'<th class="{"l" if i in (0, 1, 2, 12) else ""}">{escape(h)}</th>'
                   for i, h in enumerate(fmt.MAIN_HEADER))
    rows = []
    for point in workload["points"]:
        for r in point["results"]:
            cells = fmt.main_row(point, r)[:-1]
            tds = "".join(f'<td class="{"l" if i < 3 else ""}">{escape(c)}</td>' for i, c in enumerate(cells))
            flags = "".join(f'<span class="flag">{escape(f)}</span>' for f in r["flags"])
            rows.append(f"<tr>{tds}<td class='l'>{flags}</td></tr>")
    return f"<table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table>" \
           f'<p class="note">{escape(fmt.latency_note(workload))}. Error bars: min-max over trials; ' \
           f"ranks marked = share overlapping 95 % intervals.</p>"


def _rps_bars(point: dict, colors: dict) -> str:
    items = [svg.Bar(f"{r['rank_label']}  {r['display']}", r["rps"]["median"], colors[r["framework"]],
                     r["framework"], r["rps"]["min"], r["rps"]["max"], fmt.count(r["rps"]["median"]))
             for r in point["results"]]
    return svg.bars(f"req/s at {point['label']}", items, fmt.count)


def _row_label(point: dict, result: dict, many: bool) -> str:
    return f"{result['display']} {point['label']}" if many else result["display"]


def _cost_bars(workload: dict, colors: dict, key: str, fmt_value, title: str) -> str:
    many = len(workload["points"]) > 1
    items = [svg.Bar(_row_label(p, r, many), r[key], colors[r["framework"]], r["framework"])
             for p in workload["points"] for r in p["results"] if r[key] is not None]
    return svg.bars(title, items, fmt_value) if items else '<p class="note">not recorded</p>'


def _spectrum(point: dict, colors: dict) -> str:
    series = [svg.Series(r["display"], colors[r["framework"]],
                         [(x, r["latency_us"][key]) for key, x in SPECTRUM if r["latency_us"][key]])
              for r in point["results"]]
    ticks = [(x, fmt.PERCENTILE_NAMES[key]) for key, x in SPECTRUM]
    return svg.lines(f"latency percentiles at {point['label']}", series, ticks, lambda us: f"{fmt.ms(us)} ms",
                     y_log=True, x_label="percentile", y_label="latency (ms, log scale)")


def _sweep(workload: dict, sweep: dict, colors: dict, what: str) -> str:
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
    label = "connections" if axis == "connections" else "target rate (req/s)"
    if what == "rps":
        return svg.lines(f"req/s against {label}", series, ticks, fmt.count, x_log=True, x_label=label,
                         y_label="req/s (median)")
    return svg.lines(f"p99 against {label}", series, ticks, lambda us: f"{fmt.ms(us)} ms", x_log=True, y_log=True,
                     x_label=label, y_label="p99 latency (ms, log scale)")


def _timeline(point: dict, colors: dict, key: str) -> str:
    results = [r for r in point["results"] if r["timeline"]]
    series = [svg.Series(r["display"], colors[r["framework"]],
                         [(s["second"], s.get(key)) for s in r["timeline"]]) for r in results]
    seconds = sorted({s["second"] for r in results for s in r["timeline"]})
    ticks = [(s, f"{s:g}") for s in seconds]
    if key == "requests":
        return svg.lines(f"requests per second, {point['label']}", series, ticks, fmt.count,
                         x_label="second of the trial (median trial)", y_label="requests in that second")
    return svg.lines(f"p99 per second, {point['label']}", series, ticks, lambda us: f"{fmt.ms(us)} ms", y_log=True,
                     x_label="second of the trial (median trial)", y_label="p99 (ms, log scale)")


def _workload(workload: dict, colors: dict) -> str:
    cards = []
    for point in workload["points"]:
        cards.append(_card(f"Throughput, {point['label']}: median req/s, min-max error bars, rank",
                           _rps_bars(point, colors)))
        cards.append(_card(f"Latency spectrum, {point['label']} (p50 .. p99.99, log scale)", _spectrum(point, colors)))
    for sweep in sweeps(workload):
        cards.append(_card(f"req/s against {sweep['axis']} ({sweep['profile']})", _sweep(workload, sweep, colors, "rps")))
        cards.append(_card(f"p99 against {sweep['axis']} ({sweep['profile']})", _sweep(workload, sweep, colors, "p99")))
    cards.append(_card("Server CPU % (100 = one CPU busy)",
                       _cost_bars(workload, colors, "server_cpu_percent", lambda v: f"{v:.0f} %", "server CPU %")))
    cards.append(_card("Server peak RSS (MB, whole process tree)",
                       _cost_bars(workload, colors, "server_rss_peak_mb", lambda v: f"{v:,.0f} MB", "RSS MB")))
    cards.append(_card("Requests per server CPU-second (more is cheaper)",
                       _cost_bars(workload, colors, "requests_per_cpu_second", fmt.count, "requests per CPU-second")))
    for point in workload["points"]:
        if point["profile"] == "burst" and any(r["timeline"] for r in point["results"]):
            cards.append(_card(f"Timeline, {point['label']}: requests per second", _timeline(point, colors, "requests")))
            if any(s.get("p99_us") for r in point["results"] if r["timeline"] for s in r["timeline"]):
                cards.append(_card(f"Timeline, {point['label']}: p99 per second", _timeline(point, colors, "p99_us")))
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
            _card("How this was measured", _header(run))]
    body += [_workload(w, colors) for w in summary["workloads"]]
    body.append(_not_measured(summary["not_measured"]))
    body.append(_frameworks(run))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>webshootout report {escape(str(run['created']))}</title><style>{CSS}</style></head>"
            f'<body><main>{"".join(body)}</main></body></html>\n')
