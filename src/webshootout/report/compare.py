"""Comparison of two runs: per workload x load point x framework, the ratio of B's req/s to A's with its
interval, and a verdict that calls a change only when the whole interval is past 1.

The ratio is the Hodges-Lehmann estimate over every pair of an A trial and a B trial (the median of their
log ratios) with its exact Mann-Whitney 95 % interval (report/ranks.py): it holds the true ratio 95 % of
the time at any number of trials, so with nothing changed 1 row in 20 is called by chance, not 1 in 10 as
min-max ranges of 3 trials were. Below 4 trials a side no 95 % interval exists and no change is called.
Numbers print only the digits their intervals support.

Two runs on one machine differ as a whole: every row of a re-run moved by 4.6-7 % (docs/method.md). With enough
rows, B is divided by that common shift (the median B/A of all rows) before the rows are judged, and the
footer prints it: other stacks are the control that tells the machine's move from a stack's own.
"""

from __future__ import annotations

import math
import statistics
from html import escape

from . import consistency, fmt, ranks, stats, svg
from .html import CSS
from .terminal import table

HEADER = ("workload", "load", "framework", "A req/s", "B req/s", "B/A", "B/A 95% interval", "verdict",
          "A p99 ms", "B p99 ms")
CONFIDENCE = 0.95
# Rows and frameworks a common shift needs: with fewer, one stack's change would set it.
SHIFT_ROWS, SHIFT_FRAMEWORKS = 10, 3
SAME, TOO_FEW = "no significant change", "too few trials"


def _index(summary: dict) -> dict[tuple, dict]:
    return {(w["workload"], p["label"], r["framework"]): r
            for w in summary["workloads"] for p in w["points"] for r in p["results"]}


def change(before: list[float], after: list[float]) -> tuple[float, list[float] | None, str]:
    """B/A of the two runs' trials, its 95 % interval (None with too few trials for one) and the verdict."""
    before, after = [v for v in before if v > 0], [v for v in after if v > 0]  # a trial with no answer at all
    if not before or not after:
        return math.nan, None, TOO_FEW
    shift = ranks.unpaired([math.log(v) for v in before], [math.log(v) for v in after], 1 - CONFIDENCE)
    if not shift.bounded:
        return math.exp(shift.estimate), None, TOO_FEW
    low, high = math.exp(shift.low), math.exp(shift.high)
    return math.exp(shift.estimate), [round(low, 4), round(high, 4)], \
        "faster" if low > 1 else "slower" if high < 1 else SAME


def _interval(row: dict) -> list[float]:
    return [row["ranking"]["low"], row["ranking"]["high"]]


def common_shift(left: dict[tuple, dict], right: dict[tuple, dict]) -> float | None:
    """The median B/A of every row both runs measured, when they are enough to say what the machine did between
    the runs rather than what one stack did: every row moves with it (docs/method.md, What the machine's phases
    explain). None with fewer than SHIFT_ROWS rows or SHIFT_FRAMEWORKS frameworks."""
    keys = [k for k in left if k in right and left[k]["rps"]["median"] > 0 and right[k]["rps"]["median"] > 0]
    if len(keys) < SHIFT_ROWS or len({k[2] for k in keys}) < SHIFT_FRAMEWORKS:
        return None
    return math.exp(statistics.median(math.log(right[k]["rps"]["median"] / left[k]["rps"]["median"]) for k in keys))


def _moved(summary: dict, by: float) -> dict:
    """The summary with every row's req/s and interval divided by `by`."""
    def row(r: dict) -> dict:
        rps = {**r["rps"], "median": r["rps"]["median"] / by, "per_trial": [v / by for v in r["rps"]["per_trial"]]}
        ranking = r["ranking"] if r["ranking"]["metric"] != "rps" or r["ranking"]["value"] is None else {
            **r["ranking"], "value": r["ranking"]["value"] / by, "low": r["ranking"]["low"] / by,
            "high": r["ranking"]["high"] / by}
        return {**r, "rps": rps, "ranking": ranking}
    return {**summary, "workloads": [{**w, "points": [{**p, "results": [row(r) for r in p["results"]]}
                                                     for p in w["points"]]} for w in summary["workloads"]]}


def compare(a: dict, b: dict, a_name: str, b_name: str) -> dict:
    """Rows for results present in both runs, plus what only one of them measured. Where the runs share enough
    rows, B is first divided by their common shift, so each verdict says what a stack did beside the others."""
    measured = _index(b)
    shift = common_shift(_index(a), measured)
    if shift is not None:
        b = _moved(b, shift)
    left, right = _index(a), _index(b)
    rows = []
    # Workloads and load points in run A's order, frameworks by name so the rows are stable.
    order: dict[tuple, int] = {}
    for key in left:
        order.setdefault(key[:2], len(order))
    for key in sorted((k for k in left if k in right), key=lambda k: (order[k[:2]], k[2])):
        before, after = left[key]["rps"]["per_trial"], right[key]["rps"]["per_trial"]
        ratio, interval, verdict = change(before, after)
        rows.append({"workload": key[0], "load": key[1], "framework": key[2],
                     "a_rps": left[key]["rps"]["median"], "b_rps": measured[key]["rps"]["median"],
                     "a_interval": _interval(left[key]), "b_interval": _interval(measured[key]),
                     "ratio": round(ratio, 4), "interval": interval, "verdict": verdict,
                     "a_p99_us": left[key]["latency_us"]["p99"], "b_p99_us": right[key]["latency_us"]["p99"],
                     "trials": [len(before), len(after)]})
    only = [{"run": "A", "what": " ".join(k)} for k in left if k not in right] + \
           [{"run": "B", "what": " ".join(k)} for k in right if k not in left]
    return {"a": f"{a_name} ({a['run']['created']})", "b": f"{b_name} ({b['run']['created']})", "rows": rows,
            "only": only, "common_shift": None if shift is None else round(shift, 4),
            "speeds": [(run["run"].get("machine_speed") or {}).get("median") for run in (a, b)],
            "consistency": consistency.consistency(a, b)}


def _cells(row: dict) -> tuple[str, ...]:
    interval = row["interval"] or [None, None]
    return (row["workload"], row["load"], row["framework"], fmt.measured(row["a_rps"], *row["a_interval"]),
            fmt.measured(row["b_rps"], *row["b_interval"]), fmt.measured(row["ratio"], *interval),
            "-" if row["interval"] is None else fmt.span(*interval, row["ratio"]), row["verdict"],
            fmt.ms(row["a_p99_us"]), fmt.ms(row["b_p99_us"]))


def _footer(result: dict) -> list[str]:
    rows = result["rows"]
    judged = [r for r in rows if r["interval"] is not None]
    notes = ["B/A > 1 means B served more requests per second: the Hodges-Lehmann estimate over every pair of an "
             "A trial and a B trial, with its exact (Mann-Whitney) 95 % interval; a change is called only when the "
             "whole interval lies on one side of 1. With nothing changed 1 row in 20 is called by chance"
             + (f": about {len(judged) / 20:.1f} of these {len(judged)}." if judged else ".")]
    shift, speeds = result.get("common_shift"), result.get("speeds") or [None, None]
    if shift is not None:
        notes.append(f"Every row of B was first divided by {shift:.3f}, the median B/A of all {len(rows)} rows: what "
                     f"the machine (or a change to every stack) did between the runs, which no one stack's "
                     f"interval holds; so B/A says how a stack moved beside the others"
                     + (f" (the speed probe read {speeds[0]:.1f} and {speeds[1]:.1f} M steps/s; it does not track "
                        f"req/s, so nothing is scaled by it)" if None not in speeds else ""))
    few = sorted({tuple(r["trials"]) for r in rows if r["interval"] is None})
    notes += [f"With {a} and {b} trials no 95 % interval exists (the closest, from the extremes, misses by chance "
              f"{100 * stats.separation_chance(a, b):.0f} % of the time): no change is called" for a, b in few]
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
    colors = {"faster": "#16a34a", "slower": "#dc2626", SAME: "#9ca3af", TOO_FEW: "#d1d5db"}
    bars = [svg.Bar(f"{r['framework']} {r['workload']} {r['load']}", r["ratio"], colors[r["verdict"]],
                    r["framework"], *(r["interval"] or [None, None]),
                    f"{fmt.measured(r['ratio'], *(r['interval'] or [None, None]))} {r['verdict']}")
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
