"""report.md: the run's header and tables in GitHub-flavoured markdown, for a README or a blog post."""

from __future__ import annotations

from . import fmt, overview, tables


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], left: set[int] | frozenset[int]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    align = [":--" if i in left else "--:" for i in range(len(header))]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |",
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]


def _header(run: dict) -> list[str]:
    machine, settings = run["machine"], run["settings"]
    tools = ", ".join(f"{name} {version}" for name, version in sorted(run["tools"].items()))
    return [
        "# webshootout report", "",
        f"- **Run**: {run['created']}, webshootout {run['webshootout']}, commit `{run['git_commit']}`",
        f"- **Machine**: {machine.get('cpu_model')}, {machine.get('cpus')} CPUs, "
        f"{machine.get('memory_gb')} GB, Linux {machine.get('kernel')}",
        f"- **Pinning**: {fmt.pinning_text(run)}",
        *(f"- **Hosts**: {line}" for line in fmt.topology_lines(run)),
        f"- **Load**: {settings.get('driver')}, {settings.get('trials')} trials of {settings.get('duration')} s "
        f"after {settings.get('warmup')} s warm-up; load points {', '.join(run['load_points'])}",
        *([f"- **Machine speed**: {fmt.speed_text(run)}"] if fmt.speed_text(run) else []),
        *([f"- **Adjusted**: {fmt.adjustment_text(run)}"] if fmt.adjustment_text(run) else []),
        f"- **Tools**: {tools}", "",
        "Reproduce with:", "", "```sh", run["command"], "```", "",
        "Ranks: frameworks whose intervals overlap form an overlap group and share its rank (`=2nd`): their "
        "order is not known; req/s prints only the digits its interval supports; under each table it says which "
        "interval it is (a 95 % interval of the median needs 6 or more trials; with fewer it is the min-max "
        "range). Only rows inside the contract without errors, client-bound, below-rate or no-responses are "
        f"ranked; the baseline is the ceiling, not a contestant. Absolute figures: {fmt.BETWEEN_RUNS}.", "",
    ]


def _frameworks(run: dict) -> list[str]:
    rows = [(fid, f["display"], f["language"], f["version"], f["server"])
            for fid, f in sorted(run["frameworks"].items())]
    return ["## Frameworks", "", *_table(("id", "name", "language", "version", "server"), rows, {0, 1, 2, 3, 4}), ""]


def _block(found: tables.Table) -> list[str]:
    return [f"**{found.title}**", "", *_table(found.header, found.rows, found.left), "",
            *(f"- {note}" for note in found.notes), *([""] if found.notes else [])]


def _workload(workload: dict) -> list[str]:
    out = [f"## {workload['workload']}", ""]
    for found in tables.main_tables(workload):
        out += _block(found)
    out += [f"_{fmt.latency_note(workload)}_", ""]
    if workload.get("sustainable"):
        out += ["Sustainable throughput (the highest open-loop rate whose p99 met the SLO):", "",
                *(f"- {line}" for line in fmt.sustainable_lines(workload)), ""]
    header = ("framework", "load", *fmt.PERCENTILE_NAMES.values(), "max", "DB CPU %", "req/s per MB")
    rows = [(r["framework"], point["label"], *(fmt.ms(r["latency_us"][k]) for k in fmt.PERCENTILE_NAMES),
             fmt.ms(r["latency_us"]["max"]), fmt.percent(r["database_cpu_percent"]), fmt.ratio(r["rps_per_mb"]))
            for point in workload["points"] for r in point["results"]]
    out += ["Latency (ms; closed-loop latency at closed-loop and burst points, counted from the intended send at "
            "open-loop points) and cost:", "", *_table(header, rows, {0, 1}), ""]
    extras = tables.extras(workload)
    return out + (_block(extras) if extras else [])


def render(summary: dict) -> str:
    out = _header(summary["run"])
    found = overview.table(summary)
    out += _block(found) if found else []
    out += _frameworks(summary["run"])
    for workload in summary["workloads"]:
        out += _workload(workload)
    if summary["not_measured"]:
        out += ["## Not measured", ""]
        out += [f"- {fmt.not_measured_line(item)}" for item in summary["not_measured"]]
        out.append("")
    return "\n".join(out)
