"""Comparison of two runs: per workload x load point x framework, the ratio of median req/s with its
bootstrap interval, and a verdict that calls a change only when the whole interval is past 1. With 3 or
fewer trials a side that interval is made of the min-max ranges, and the footer says how often such
ranges miss each other by chance."""

from __future__ import annotations

from html import escape

from . import consistency, fmt, stats, svg
from .html import CSS
from .terminal import table

HEADER = ("workload", "load", "framework", "A req/s", "B req/s", "B/A", "B/A interval", "verdict", "A p99 ms",
          "B p99 ms")
# Up to this many trials a side, every resampled median is as often an extreme as the 2.5 % tails need,
# so the bootstrap interval of the ratio is exactly min(B)/max(A) to max(B)/min(A).
RANGE_TRIALS = 3


def _index(summary: dict) -> dict[tuple, dict]:
    return {(w["workload"], p["label"], r["framework"]): r
            for w in summary["workloads"] for p in w["points"] for r in p["results"]}


def compare(a: dict, b: dict, a_name: str, b_name: str) -> dict:
    """Rows for results present in both runs, plus what only one of them measured."""
    left, right = _index(a), _index(b)
    rows = []
    # Workloads and load points in run A's order, frameworks by name so the rows are stable.
    order: dict[tuple, int] = {}
    for key in left:
        order.setdefault(key[:2], len(order))
    for key in sorted((k for k in left if k in right), key=lambda k: (order[k[:2]], k[2])):
        before, after = left[key]["rps"]["per_trial"], right[key]["rps"]["per_trial"]
        ratio, (low, high), verdict = stats.change(before, after)
        rows.append({"workload": key[0], "load": key[1], "framework": key[2],
                     "a_rps": left[key]["rps"]["median"], "b_rps": right[key]["rps"]["median"],
                     "ratio": round(ratio, 4), "interval": [round(low, 4), round(high, 4)], "verdict": verdict,
                     "a_p99_us": left[key]["latency_us"]["p99"], "b_p99_us": right[key]["latency_us"]["p99"],
                     "trials": [len(before), len(after)]})
    only = [{"run": "A", "what": " ".join(k)} for k in left if k not in right] + \
           [{"run": "B", "what": " ".join(k)} for k in right if k not in left]
    return {"a": f"{a_name} ({a['run']['created']})", "b": f"{b_name} ({b['run']['created']})", "rows": rows,
            "only": only, "consistency": consistency.consistency(a, b)}


def _cells(row: dict) -> tuple[str, ...]:
    return (row["workload"], row["load"], row["framework"], fmt.count(row["a_rps"]), fmt.count(row["b_rps"]),
            f"{row['ratio']:.3f}", f"{row['interval'][0]:.3f}-{row['interval'][1]:.3f}", row["verdict"],
            fmt.ms(row["a_p99_us"]), fmt.ms(row["b_p99_us"]))


def _footer(result: dict) -> list[str]:
    notes = ["B/A > 1 means B served more requests per second. A change is called only when the whole "
             "interval of the ratio of medians (95 % percentile bootstrap) lies on one side of 1."]
    for a, b in sorted({tuple(r["trials"]) for r in result["rows"] if max(r["trials"]) <= RANGE_TRIALS}):
        notes.append(f"With {a} and {b} trials the interval is min(B)/max(A) to max(B)/min(A): a change is called "
                     f"when the min-max ranges do not overlap, which happens by chance "
                     f"{100 * stats.separation_chance(a, b):.0f} % of the time when nothing changed.")
    notes.append(consistency.describe(result["consistency"]))
    return notes + [f"only in run {o['run']}: {o['what']}" for o in result["only"]]


def render_terminal(result: dict) -> str:
    rows = [_cells(r) for r in result["rows"]]
    head = f"A = {result['a']}, B = {result['b']}"
    return "\n".join([head, table(HEADER, rows, {0, 1, 2, 7}), *_footer(result)])


def render_markdown(result: dict) -> str:
    out = ["# webshootout compare", "", f"A = {result['a']}, B = {result['b']}", "",
           "| " + " | ".join(HEADER) + " |", "| " + " | ".join(":--" if i in (0, 1, 2, 7) else "--:"
                                                                for i in range(len(HEADER))) + " |"]
    out += ["| " + " | ".join(_cells(r)) + " |" for r in result["rows"]]
    return "\n".join(out + [""] + [f"- {line}" for line in _footer(result)]) + "\n"


def render_html(result: dict) -> str:
    colors = {"faster": "#16a34a", "slower": "#dc2626", "no significant change": "#9ca3af"}
    bars = [svg.Bar(f"{r['framework']} {r['workload']} {r['load']}", r["ratio"], colors[r["verdict"]],
                    r["framework"], r["interval"][0], r["interval"][1], f"{r['ratio']:.3f} {r['verdict']}")
            for r in result["rows"]]
    head = "".join(f"<th>{escape(h)}</th>" for h in HEADER)
    rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in _cells(r)) + "</tr>" for r in result["rows"])
    notes = "".join(f"<p class='note'>{escape(line)}</p>" for line in _footer(result))
    chart = svg.bars("B/A ratio of median req/s with its interval", bars, lambda v: f"{v:.2f}") if bars else ""
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>webshootout compare</title>'
            f"<style>{CSS}</style></head><body><main><h1>webshootout compare</h1>"
            f"<p>A = {escape(str(result['a']))}, B = {escape(str(result['b']))}</p>"
            f'<section class="card"><h3>B/A, median req/s (error bars: the interval of the table)</h3>{chart}</section>'
            f'<section class="card"><table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>{notes}'
            f"</section></main></body></html>\n")


FORMATS = {"terminal": render_terminal, "markdown": render_markdown, "html": render_html}
