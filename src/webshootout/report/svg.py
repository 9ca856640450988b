"""Small inline-SVG charts: horizontal bars with error bars, and line charts on linear or log axes.

Our own few hundred lines instead of a chart library, so report.html needs no network and no script.
Every mark carries data-* attributes and a <title> (the browser's tooltip), which the browser test reads.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from html import escape

PALETTE = ("#2563eb", "#ea580c", "#16a34a", "#9333ea", "#dc2626", "#0891b2", "#ca8a04", "#db2777", "#4b5563",
           "#65a30d")
WIDTH = 620
FONT = 'font-family="system-ui, sans-serif" font-size="12"'
# Widths in px of characters at 12 px, on the generous side of common sans-serif fonts, so a label
# measured to fit does fit; the browser test checks real widths.
_NARROW, _WIDE, _CAPITAL, _OTHER = 4.0, 10.5, 8.5, 7.0
MAX_LABEL_W = 230


def text_width(text: str) -> float:
    """An upper estimate of the rendered width of `text` in the charts' font."""
    def width(ch: str) -> float:
        if ch in "il.,:;|!'()[] fjt":
            return _NARROW
        if ch in "mwMW@%":
            return _WIDE
        return _CAPITAL if ch.isupper() else _OTHER
    return sum(width(ch) for ch in text)


def fit(text: str, width: float) -> str:
    """`text` if it fits in `width` px, else its longest start that does, cut after a whole word where
    there is one, with an ellipsis: a label keeps its beginning (the rank, the name) and is never cut
    mid-word at the left."""
    if text_width(text) <= width:
        return text
    words = text.split(" ")
    kept = ""
    for word in words:
        candidate = f"{kept} {word}" if kept else word
        if text_width(candidate + "…") > width:
            break
        kept = candidate
    if not kept:  # a first word longer than the room: cut it, still from its start
        kept = words[0]
        while kept and text_width(kept + "…") > width:
            kept = kept[:-1]
    return kept + "…"


@dataclass(frozen=True)
class Bar:
    label: str  # left of the bar, e.g. "=1st alpha"
    value: float
    color: str
    key: str  # data-framework
    low: float | None = None  # error bar ends (min-max); None draws none
    high: float | None = None
    text: str = ""  # right of the bar


@dataclass(frozen=True)
class Ceiling:
    """A dashed line across the bars at a baseline's value: what the contestants are measured against."""
    label: str
    value: float


@dataclass(frozen=True)
class Series:
    name: str
    color: str
    points: list[tuple[float, float]]  # (x, y) in data units


@dataclass(frozen=True)
class Axes:
    x_ticks: list[tuple[float, str]]  # (data value, label) pairs; they fix the x range
    y_fmt: Callable[[float], str]
    x_label: str = ""
    y_label: str = ""
    x_log: bool = False
    y_log: bool = False


def _num(value: float) -> str:
    return f"{value:.1f}"


def _svg(width: int, height: int, title: str, body: list[str]) -> str:
    return (f'<svg class="chart" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" role="img" aria-label="{escape(title)}" {FONT}>'
            f'<title>{escape(title)}</title>{"".join(body)}</svg>')


def nice_axis(value: float) -> tuple[float, float]:
    """(end, step) of an axis from zero: at most five steps of 1, 2, 2.5 or 5 x 10^k, ending on a step."""
    if value <= 0:
        return 1.0, 0.25
    power = 10 ** math.floor(math.log10(value) - 1)
    step = next(m * power for m in (1, 2, 2.5, 5, 10, 20, 25, 50, 100) if value / (m * power) <= 5 + 1e-9)
    return step * math.ceil(value / step - 1e-9), step


def bars(title: str, items: list[Bar], fmt, ceiling: Ceiling | None = None) -> str:
    """Horizontal bars from zero, longest scale = the largest value, error-bar end or ceiling. Labels get
    the room the longest needs (up to MAX_LABEL_W; longer ones are shortened by `fit`), values theirs."""
    row_h = 26
    top = 24 if ceiling else 8
    label_w = min(MAX_LABEL_W, max([text_width(b.label) for b in items] + [60]) + 16)
    text_w = max([text_width(b.text or fmt(b.value)) for b in items] + [60]) + 16
    width = max(WIDTH, round(label_w + text_w + 240))
    plot_w = width - label_w - text_w
    ends = [b.high or b.value for b in items] + [b.value for b in items] + ([ceiling.value] if ceiling else [])
    scale_max, step = nice_axis(max(ends or [1]))

    def x(v: float) -> float:
        return label_w + plot_w * v / scale_max

    body = []
    for i, bar in enumerate(items):
        y = top + i * row_h
        mid = y + row_h / 2
        tip = f"{bar.label}: {fmt(bar.value)}" + (f" (min-max {fmt(bar.low)}-{fmt(bar.high)})"
                                                  if bar.low is not None else "")
        body.append(f'<text class="label" x="{_num(label_w - 8)}" y="{_num(mid + 4)}" text-anchor="end">'
                    f'{escape(fit(bar.label, label_w - 12))}<title>{escape(bar.label)}</title></text>')
        body.append(f'<rect class="bar" data-framework="{escape(bar.key)}" data-value="{bar.value:g}" '
                    f'x="{_num(label_w)}" y="{_num(y + 4)}" width="{_num(x(bar.value) - label_w)}" '
                    f'height="{row_h - 8}" fill="{bar.color}" rx="2"><title>{escape(tip)}</title></rect>')
        if bar.low is not None and bar.high is not None:
            x0, x1 = _num(x(bar.low)), _num(x(bar.high))
            body.append(f'<g class="errorbar" stroke="#111" stroke-width="1.4">'
                        f'<line x1="{x0}" x2="{x1}" y1="{_num(mid)}" y2="{_num(mid)}"/>'
                        f'<line x1="{x0}" x2="{x0}" y1="{_num(mid - 6)}" y2="{_num(mid + 6)}"/>'
                        f'<line x1="{x1}" x2="{x1}" y1="{_num(mid - 6)}" y2="{_num(mid + 6)}"/></g>')
        end = max(x(bar.value), x(bar.high) if bar.high is not None else 0)
        body.append(f'<text class="value" x="{_num(end + 6)}" y="{_num(mid + 4)}">'
                    f'{escape(bar.text or fmt(bar.value))}</text>')
    axis_y = top + len(items) * row_h + 2
    for k in range(round(scale_max / step) + 1):
        v = step * k
        body.append(f'<line x1="{_num(x(v))}" x2="{_num(x(v))}" y1="{top}" y2="{axis_y}" stroke="#e5e7eb"/>'
                    f'<text x="{_num(x(v))}" y="{axis_y + 14}" text-anchor="middle" fill="#6b7280">'
                    f'{escape(fmt(v))}</text>')
    # Grid lines first so bars draw over them.
    grid = [b for b in body if b.startswith("<line")]
    marks = [b for b in body if not b.startswith("<line")]
    return _svg(width, axis_y + 22, title, grid + marks + ([_ceiling(ceiling, x(ceiling.value), top, axis_y, fmt)]
                                                            if ceiling else []))


def _ceiling(ceiling: Ceiling, at: float, top: float, bottom: float, fmt) -> str:
    text = f"ceiling: {ceiling.label} {fmt(ceiling.value)}"
    label = fit(text, at - 4)  # right-aligned at the line, so it has the room left of it
    return (f'<g class="ceiling" data-value="{ceiling.value:g}"><line x1="{_num(at)}" x2="{_num(at)}" y1="{top - 6}" '
            f'y2="{bottom}" stroke="#111827" stroke-width="1.2" stroke-dasharray="4 3"/>'
            f'<text x="{_num(at - 4)}" y="{top - 10}" text-anchor="end" fill="#374151">{escape(label)}'
            f"<title>{escape(text)}</title></text></g>")


def _log_ticks(low: float, high: float) -> list[float]:
    """Powers of ten, with 2 and 5 between them while there is room (up to three decades)."""
    ticks = []
    steps = (1, 2, 5) if math.log10(high / low) <= 3 else (1,)
    for power in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for m in steps:
            v = m * 10 ** power
            if low <= v <= high:
                ticks.append(v)
    return ticks


def lines(title: str, series: list[Series], axes: Axes) -> str:
    """A line chart with markers and a legend at the right."""
    x_ticks, y_fmt, x_log, y_log = axes.x_ticks, axes.y_fmt, axes.x_log, axes.y_log
    left, right, top, bottom, height = 84, 130, 10, 40, 300
    plot_w, plot_h = WIDTH - left - right, height - top - bottom
    ys = [y for s in series for _, y in s.points if y is not None and (y > 0 or not y_log)]
    xs = [x for x, _ in x_ticks]
    if y_log:
        y_low, y_high = 10 ** math.floor(math.log10(min(ys))), 10 ** math.ceil(math.log10(max(ys)))
        y_ticks = _log_ticks(y_low, y_high)
    else:
        y_high, step = nice_axis(max(ys) if ys else 1)
        y_low, y_ticks = 0.0, [step * k for k in range(round(y_high / step) + 1)]

    def tx(v: float) -> float:
        return math.log10(v) if x_log else v

    def ty(v: float) -> float:
        return math.log10(v) if y_log else v

    x_span = (tx(max(xs)) - tx(min(xs))) or 1
    y_span = (ty(y_high) - ty(y_low)) or 1

    def px(v: float) -> float:
        return left + plot_w * (tx(v) - tx(min(xs))) / x_span

    def py(v: float) -> float:
        return top + plot_h * (1 - (ty(v) - ty(y_low)) / y_span)

    body = []
    for v in y_ticks:
        body.append(f'<line x1="{left}" x2="{left + plot_w}" y1="{_num(py(v))}" y2="{_num(py(v))}" stroke="#e5e7eb"/>'
                    f'<text x="{left - 6}" y="{_num(py(v) + 4)}" text-anchor="end" fill="#6b7280">'
                    f'{escape(y_fmt(v))}</text>')
    for v, label in x_ticks:
        body.append(f'<line x1="{_num(px(v))}" x2="{_num(px(v))}" y1="{top}" y2="{top + plot_h}" stroke="#f1f5f9"/>'
                    f'<text x="{_num(px(v))}" y="{top + plot_h + 16}" text-anchor="middle" fill="#6b7280">'
                    f'{escape(label)}</text>')
    body.append(f'<text x="{left + plot_w / 2}" y="{height - 4}" text-anchor="middle">{escape(axes.x_label)}</text>')
    body.append(f'<text transform="translate(14 {top + plot_h / 2}) rotate(-90)" text-anchor="middle">'
                f'{escape(axes.y_label)}</text>')
    for i, s in enumerate(series):
        pts = [(x, y) for x, y in s.points if y is not None and (y > 0 or not y_log)]
        path = " ".join(f"{_num(px(x))},{_num(py(y))}" for x, y in pts)
        body.append(f'<g class="series" data-framework="{escape(s.name)}">'
                    f'<polyline points="{path}" fill="none" stroke="{s.color}" stroke-width="2"/>')
        for x, y in pts:
            body.append(f'<circle class="point" data-value="{y:g}" cx="{_num(px(x))}" cy="{_num(py(y))}" r="3.5" '
                        f'fill="{s.color}"><title>{escape(s.name)}: {escape(y_fmt(y))}</title></circle>')
        body.append("</g>")
        legend_y = top + 12 + i * 18
        body.append(f'<rect x="{WIDTH - right + 12}" y="{legend_y - 9}" width="12" height="12" fill="{s.color}"/>'
                    f'<text class="label" x="{WIDTH - right + 30}" y="{legend_y + 1}">{escape(fit(s.name, right - 34))}'
                    f'<title>{escape(s.name)}</title></text>')
    return _svg(WIDTH, height, title, body)
