"""The terminal table: one per workload, a row per framework and load point, ranked with ties."""

from __future__ import annotations

from . import fmt

LEFT = {0, 1, 2, 12}  # text columns; numbers align right


def table(header: tuple[str, ...], rows: list[tuple[str, ...]], left: set[int]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render(summary: dict) -> str:
    out = []
    for workload in summary["workloads"]:
        rows = [fmt.main_row(point, result) for point in workload["points"] for result in point["results"]]
        out.append(f"\n== {workload['workload']} ==\n{table(fmt.MAIN_HEADER, rows, LEFT)}\n"
                   f"{fmt.latency_note(workload)}")
        out.extend(f"sustainable throughput: {line}" for line in fmt.sustainable_lines(workload))
    if summary["not_measured"]:
        out.append("\n== not measured ==")
        out.extend(fmt.not_measured_line(item) for item in summary["not_measured"])
    return "\n".join(out) if out else "(no results)"
