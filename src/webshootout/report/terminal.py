"""The terminal report: per workload its tables, ranked rows first, then what is not ranked and why."""

from __future__ import annotations

from . import fmt, overview, tables


def table(header: tuple[str, ...], rows: list[tuple[str, ...]], left: set[int] | frozenset[int]) -> str:
    widths = [max(len(row[i]) for row in [header, *rows]) for i in range(len(header))]
    lines = []
    for row in [header, *rows]:
        cells = [c.ljust(w) if i in left else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def _block(found: tables.Table) -> str:
    notes = "".join(f"\n  {note}" for note in found.notes)
    return f"-- {found.title}\n{table(found.header, found.rows, found.left)}{notes}"


def render(summary: dict) -> str:
    found = overview.table(summary)
    out = [f"\n== TechEmpower overview ==\n{_block(found)}"] if found else []
    for workload in summary["workloads"]:
        blocks = [*tables.main_tables(workload), *filter(None, [tables.extras(workload)])]
        out.append(f"\n== {workload['workload']} ==\n" + "\n".join(_block(b) for b in blocks)
                   + f"\n{fmt.latency_note(workload)}")
        out.extend(f"sustainable throughput: {line}" for line in fmt.sustainable_lines(workload))
    if summary["not_measured"]:
        out.append("\n== not measured ==")
        out.extend(fmt.not_measured_line(item) for item in summary["not_measured"])
    if out and fmt.speed_text(summary["run"]):
        out.append(f"\nmachine speed: {fmt.speed_text(summary['run'])}")
    if out and fmt.adjustment_text(summary["run"]):
        out.append(f"adjusted: {fmt.adjustment_text(summary['run'])}")
    if out:
        out.append(f"between runs: {fmt.BETWEEN_RUNS}")
    hosts = fmt.topology_lines(summary["run"])
    if out and hosts:
        out.append("\n== hosts ==")
        out.extend(hosts)
    return "\n".join(out) if out else "(no results)"
