"""report.md: the run's header and tables in GitHub-flavoured markdown, for a README or a blog post."""

from __future__ import annotations

from . import fmt


def _table(header: tuple[str, ...], rows: list[tuple[str, ...]], left: set[int]) -> list[str]:
    def cell(text: str) -> str:
        return text.replace("|", "\\|")
    align = [":--" if i in left else "--:" for i in range(len(header))]
    return ["| " + " | ".join(header) + " |", "| " + " | ".join(align) + " |",
            *("| " + " | ".join(cell(c) for c in row) + " |" for row in rows)]


def _header(run: dict) -> list[str]:
    machine, pinning, settings = run["machine"], run["pinning"], run["settings"]
    tools = ", ".join(f"{name} {version}" for name, version in sorted(run["tools"].items()))
    return [
        "# webshootout report", "",
        f"- **Run**: {run['created']}, webshootout {run['webshootout']}, commit `{run['git_commit']}`",
        f"- **Machine**: {machine.get('cpu_model')}, {machine.get('cpus')} CPUs, "
        f"{machine.get('memory_gb')} GB, Linux {machine.get('kernel')}",
        f"- **Pinning**: server and PostgreSQL on CPUs {pinning.get('server_cpus')}, "
        f"load generator on CPUs {pinning.get('load_cpus')}",
        f"- **Load**: {settings.get('driver')}, {settings.get('trials')} trials of {settings.get('duration')} s "
        f"after {settings.get('warmup')} s warm-up; load points {', '.join(run['load_points'])}",
        f"- **Tools**: {tools}", "",
        "Reproduce with:", "", "```sh", run["command"], "```", "",
        "Ranks: frameworks whose 95 % intervals of the median req/s overlap share a rank (`=2nd`). "
        "With 3 or 5 trials that interval is the min-max range.", "",
    ]


def _frameworks(run: dict) -> list[str]:
    rows = [(fid, f["display"], f["language"], f["version"], f["server"])
            for fid, f in sorted(run["frameworks"].items())]
    return ["## Frameworks", "", *_table(("id", "name", "language", "version", "server"), rows, {0, 1, 2, 3, 4}), ""]


def _workload(workload: dict) -> list[str]:
    out = [f"## {workload['workload']}", ""]
    rows = [fmt.main_row(point, result) for point in workload["points"] for result in point["results"]]
    out += [*_table(fmt.MAIN_HEADER, rows, {0, 1, 2, 12}), "", f"_{fmt.latency_note(workload)}_", ""]
    if workload.get("sustainable"):
        out += ["Sustainable throughput (the highest open-loop rate whose p99 met the SLO):", "",
                *(f"- {line}" for line in fmt.sustainable_lines(workload)), ""]
    header = ("framework", "load", *fmt.PERCENTILE_NAMES.values(), "max", "DB CPU %", "req/s per MB")
    rows = [(r["framework"], point["label"], *(fmt.ms(r["latency_us"][k]) for k in fmt.PERCENTILE_NAMES),
             fmt.ms(r["latency_us"]["max"]), fmt.percent(r["database_cpu_percent"]), fmt.ratio(r["rps_per_mb"]))
            for point in workload["points"] for r in point["results"]]
    out += ["Latency (ms) and cost:", "", *_table(header, rows, {0, 1}), ""]
    return out


def render(summary: dict) -> str:
    out = _header(summary["run"]) + _frameworks(summary["run"])
    for workload in summary["workloads"]:
        out += _workload(workload)
    if summary["not_measured"]:
        out += ["## Not measured", ""]
        out += [f"- {fmt.not_measured_line(item)}" for item in summary["not_measured"]]
        out.append("")
    return "\n".join(out)
