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


def result(sides, rows: list[tuple[str, str, list[dict], list[dict]]], threshold: float, max_trials: int,
           looks: int) -> dict:
    """ab.json: `rows` are (workload, point, A's trial lines, B's trial lines)."""
    out = []
    for workload, point, a_trials, b_trials in rows:
        ratios = verdict.row(a_trials, b_trials, threshold, looks)
        out.append({"workload": workload, "point": point, "pairs": min(len(a_trials), len(b_trials)),
                    "decided": bool(ratios) and all(r.decided for r in ratios),
                    "regression": bool(verdict.regressed(ratios, threshold)),
                    "ratios": [r.to_dict() for r in ratios],
                    "trials": [_trial("A", t) for t in a_trials] + [_trial("B", t) for t in b_trials]})
    regression = any(r["regression"] for r in out)
    return {"schema": 1, "a": _side(sides[0]), "b": _side(sides[1]), "threshold_percent": round(100 * threshold, 3),
            "max_trials": max_trials, "confidence": round(verdict.confidence(looks), 5), "rows": out,
            "regression": regression, "exit": 1 if regression else 0}


HEADER = ("workload", "load", "pairs", *(f"B/A {NAMES[m]}" for m, *_ in verdict.METRICS), "detectable")


def _cell(ratio: dict | None) -> str:
    if ratio is None:
        return "-"
    low, high = ratio["interval"]
    return f"{ratio['ratio']:.3f} [{low:.3f}-{high:.3f}] {ratio['words']}"


def _cells(row: dict) -> tuple[str, ...]:
    by = {r["metric"]: r for r in row["ratios"]}
    mdd = by.get("throughput", {}).get("mdd_percent")
    return (row["workload"], row["point"], str(row["pairs"]), *(_cell(by.get(m)) for m, *_ in verdict.METRICS),
            "-" if mdd is None else f"±{mdd:.1f} %")


def _notes(result: dict) -> list[str]:
    line = (f"B/A over trials paired in time (A B B A ...), median with its {100 * result['confidence']:.2f} % "
            f"paired bootstrap interval (95 % for the whole verdict, every ratio and look counted); "
            f"threshold ±{result['threshold_percent']:g} %; detectable: the throughput difference these trials "
            f"find 80 % of the time.")
    undecided = [f"{r['workload']} {r['point']}" for r in result["rows"] if not r["decided"]]
    return [line] + ([f"not decided within {result['max_trials']} trials a side: {', '.join(undecided)}"]
                     if undecided else [])


def labels(result: dict) -> tuple[str, str]:
    """What tells the sides apart for a reader: display name, version, and the settings (--a-env/--b-env)
    that differ."""
    a, b = result["a"], result["b"]

    def label(side: dict, other: dict) -> str:
        named = side["display"] if side["version"] in side["display"] else f"{side['display']} {side['version']}"
        differs = sorted(f"{k}={v}" for k, v in side["env"].items() if other["env"].get(k) != v)
        return named + (f", {' '.join(differs)}" if differs else "")

    return label(a, b), label(b, a)


def headline(result: dict) -> str:
    a, b = labels(result)
    if result["regression"]:
        return f"REGRESSION: {b} is worse than {a} by more than {result['threshold_percent']:g} % (exit 1)"
    return f"no regression of {b} against {a} past {result['threshold_percent']:g} % (exit 0)"


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
        sentences = "".join(f"<li>{escape(NAMES[r['metric']])}: B/A {r['ratio']:.3f} "
                            f"[{r['interval'][0]:.3f}-{r['interval'][1]:.3f}], {escape(r['words'])}; "
                            f"detectable ±{r['mdd_percent']:.1f} %</li>" for r in row["ratios"])
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
