"""The outputs of `shootout ab`: ab.json (schemas/ab.schema.json), its terminal table and its HTML page
with the paired trials drawn over time. Everything here is computed from the trial lines alone, so ab.json
can be rebuilt from results.jsonl."""

from __future__ import annotations

from datetime import datetime
from html import escape

from . import svg, verdict
from .html import CSS
from .terminal import table

COLORS = {"A": "#2563eb", "B": "#ea580c"}
NAMES = {"throughput": "req/s", "p99": "p99", "cpu_per_request": "CPU/req"}


def _trial(side: str, line: dict) -> dict:
    return {"side": side, "trial": line["trial"], "time": line["time"], "rps": line["rps"],
            "p99_us": line["latency_us"].get("p99"), "server_cpu_percent": line["server_cpu_percent"],
            "idle_cpu_percent": line.get("idle_cpu_percent"), "flags": line["flags"]}


def _side(variant) -> dict:
    return {"id": variant.id, "display": variant.display, "version": variant.version, "folder": str(variant.folder),
            "env": dict(variant.start.env)}


def result(sides, rows: list[tuple[str, str, list[dict], list[dict]]], plan: verdict.Plan, max_trials: int) -> dict:
    """ab.json: `rows` are (workload, point, A's trial lines, B's trial lines)."""
    out, judged = [], []
    for workload, point, a_trials, b_trials in rows:
        ratios = verdict.row(a_trials, b_trials, plan)
        judged.append(ratios)
        out.append({"workload": workload, "point": point, "pairs": min(len(a_trials), len(b_trials)),
                    "decided": verdict.decided(ratios, plan),
                    "regression": any(r.worse and r.gating for r in ratios),
                    "ratios": [r.to_dict() for r in ratios],
                    "trials": [_trial("A", t) for t in a_trials] + [_trial("B", t) for t in b_trials]})
    design = plan.design
    return {"schema": 2, "a": _side(sides[0]), "b": _side(sides[1]),
            "threshold_percent": round(100 * plan.threshold, 3), "max_trials": max_trials, "gates": list(plan.gates),
            "design": {"looks": list(design.looks), "family_error": verdict.FAMILY_ERROR,
                       "alpha": round(design.alpha, 6), "confidence": [round(1 - a, 9) for a in design.levels]},
            "rows": out, "regression": any(r["regression"] for r in out),
            "exit": verdict.exit_status(judged, plan)}


HEADER = ("workload", "load", "pairs", *(f"B/A {NAMES[m]}" for m, *_ in verdict.METRICS), "detectable")


def _cell(ratio: dict | None) -> str:
    if ratio is None:
        return "-"
    span = " [-]" if ratio["interval"] is None else " [{:.3f}-{:.3f}]".format(*ratio["interval"])
    return f"{ratio['ratio']:.3f}{span} {ratio['answer']}{'' if ratio['gating'] else ' (not gating)'}"


def _cells(row: dict) -> tuple[str, ...]:
    by = {r["metric"]: r for r in row["ratios"]}
    mdd = by.get("throughput", {}).get("mdd_percent")
    return (row["workload"], row["point"], str(row["pairs"]), *(_cell(by.get(m)) for m, *_ in verdict.METRICS),
            "-" if mdd is None else f"±{mdd:.1f} %")


def _notes(result: dict) -> list[str]:
    design = result["design"]
    gates = " and ".join(NAMES[g] for g in result["gates"])
    line = (f"B/A over pairs of trials run side by side (each pair's order by a coin): the Hodges-Lehmann "
            f"estimate of the pairs' log ratios with its exact signed-rank interval, read at "
            f"{', '.join(map(str, design['looks']))} pairs; {gates} gate{'s' if len(result['gates']) == 1 else ''} "
            f"and stop{'s' if len(result['gates']) == 1 else ''} a row, with {100 * design['family_error']:g} % "
            f"error over every gating row and metric and every look (O'Brien-Fleming-type alpha spending); "
            f"the last look's intervals are {100 * design['confidence'][-1]:.2f} %. Threshold "
            f"±{result['threshold_percent']:g} %: an interval inside it is no difference. Detectable: the "
            f"throughput difference these pairs find 80 % of the time.")
    return [line] + [f"not decided within {result['max_trials']} pairs: {where}" for where in _where(result, None)]


def labels(result: dict) -> tuple[str, str]:
    """What tells the sides apart for a reader: display name, version, and the settings (--a-env/--b-env)
    that differ."""
    a, b = result["a"], result["b"]

    def label(side: dict, other: dict) -> str:
        named = side["display"] if side["version"] in side["display"] else f"{side['display']} {side['version']}"
        differs = sorted(f"{k}={v}" for k, v in side["env"].items() if other["env"].get(k) != v)
        return named + (f", {' '.join(differs)}" if differs else "")

    return label(a, b), label(b, a)


def _where(result: dict, worse: bool | None) -> list[str]:
    """'json c=64 slower by 3.1 % [1.2-5.0 %]' for each gating ratio that is worse (True), inconclusive
    (None) or better (False)."""
    found = []
    for row in result["rows"]:
        for r in row["ratios"]:
            if not r["gating"]:
                continue
            better = r["decided"] and not r["worse"] and r["answer"] != verdict.SAME
            if (worse is True and r["worse"]) or (worse is None and not r["decided"]) or (worse is False and better):
                found.append(f"{row['workload']} {row['point']} {NAMES[r['metric']]} {r['words']}")
    return found


def headline(result: dict) -> str:
    a, b = labels(result)
    threshold = f"±{result['threshold_percent']:g} %"
    if result["exit"] == verdict.WORSE_EXIT:
        return f"SLOWER: {b} against {a}: {'; '.join(_where(result, True))} (exit 1)"
    if result["exit"] == verdict.UNDECIDED_EXIT:
        undecided = _where(result, None) or ["no row was measured"]
        return (f"INCONCLUSIVE: {b} against {a}: {result['max_trials']} pairs showed neither a difference nor "
                f"one within {threshold}: {'; '.join(undecided)} (exit 3)")
    faster = _where(result, False)
    if faster:
        return f"FASTER: {b} against {a}: {'; '.join(faster)}; no row slower (exit 0)"
    return f"NO DIFFERENCE: {b} against {a} is within {threshold} on every row (exit 0)"


def render_terminal(result: dict) -> str:
    a, b = labels(result)
    head = f"A = {a} ({result['a']['folder']}), B = {b} ({result['b']['folder']})"
    return "\n".join([head, table(HEADER, [_cells(r) for r in result["rows"]], {0, 1}), *_notes(result),
                      headline(result)])


def _seconds(stamp: str, start: datetime) -> float:
    return (datetime.fromisoformat(stamp) - start).total_seconds()


def _chart(row: dict, start: datetime) -> str:
    series = [svg.Series(side, COLORS[side], [(_seconds(t["time"], start), t["rps"]) for t in row["trials"]
                                              if t["side"] == side]) for side in "AB"]
    # Round seconds from zero: ticks at trial times printed over each other where trials ran close together.
    end, step = svg.nice_axis(max((x for s in series for x, _ in s.points), default=0.0))
    ticks = [(step * k, f"{step * k:,g}") for k in range(round(end / step) + 1)]
    return svg.lines(f"req/s of each trial, {row['workload']} {row['point']}", series,
                     svg.Axes(ticks, lambda v: f"{v:,.0f}", "seconds since the first trial", "req/s"))


def render_html(result: dict) -> str:
    a, b = labels(result)
    stamps = [t["time"] for r in result["rows"] for t in r["trials"]]
    start = datetime.fromisoformat(min(stamps)) if stamps else None
    cards = []
    for row in result["rows"]:
        sentences = "".join(f"<li>{escape(NAMES[r['metric']])}: B/A {escape(_cell(r))}: {escape(r['words'])}"
                            + ("" if r["mdd_percent"] is None else f"; detectable ±{r['mdd_percent']:.1f} %")
                            + "</li>" for r in row["ratios"])
        chart = _chart(row, start) if row["trials"] else ""
        bad = " bad" if row["regression"] else ""
        cards.append(f'<section class="card{bad}"><h3>{escape(row["workload"])} {escape(row["point"])}: '
                     f'{row["pairs"]} pairs</h3><ul>{sentences}</ul>{chart}</section>')
    notes = "".join(f"<p class='note'>{escape(n)}</p>" for n in _notes(result))
    return (f'<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>webshootout ab</title>'
            f"<style>{CSS}</style></head><body><main><h1>webshootout ab</h1>"
            f"<p class='lead'>{escape(headline(result))}</p>"
            f"<p>A = {escape(a)} ({escape(result['a']['folder'])}), B = {escape(b)} "
            f"({escape(result['b']['folder'])})</p>"
            f"{''.join(cards)}{notes}</main></body></html>\n")
