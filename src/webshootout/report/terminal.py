"""The terminal table: one per workload, a row per framework and load point."""

from __future__ import annotations

from collections import defaultdict

from .. import stats

NOISY_CV = 0.05


def _ms(us: float | None) -> str:
    return "-" if us is None else f"{us / 1000:.2f}"


def _rows(trials: list[dict]) -> list[tuple[str, ...]]:
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for line in trials:
        groups[(line["framework"], line["connections"])].append(line)
    rows = []
    for (framework, connections), lines in groups.items():
        rps = [line["rps"] for line in lines]
        flags = sorted({flag for line in lines for flag in line.get("flags", [])}
                       | ({"noisy"} if stats.cv(rps) > NOISY_CV else set())
                       | ({"cookieless"} if any("cookieless" in n for line in lines for n in line["notes"]) else set()))
        rows.append((
            framework, str(connections), f"{stats.median(rps):,.0f}", f"{min(rps):,.0f}-{max(rps):,.0f}",
            # Median over trials of each trial's percentile; merged histograms replace this later.
            _ms(stats.median([line["latency_us"]["p50"] for line in lines])),
            _ms(stats.median([line["latency_us"]["p99"] for line in lines])),
            str(sum(sum(line["errors"].values()) for line in lines)),
            f"{stats.median([line['server_cpu_percent'] for line in lines]):.0f}",
            f"{max(line['server_rss_peak_mb'] for line in lines):.0f}",
            ",".join(flags),
        ))
    return sorted(rows, key=lambda r: -float(r[2].replace(",", "")))


HEADER = ("framework", "conns", "req/s", "min-max", "p50 ms", "p99 ms", "errors", "CPU %", "RSS MB", "flags")


def _table(rows: list[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in [HEADER, *rows]) for i in range(len(HEADER))]
    lines = []
    for row in [HEADER, *rows]:
        cells = [c.ljust(w) if i in (0, 9) else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths))]
        lines.append("  ".join(cells).rstrip())
    return "\n".join(lines)


def render(lines: list[dict]) -> str:
    out = []
    by_workload: dict[str, list[dict]] = defaultdict(list)
    for line in lines:
        if line["kind"] == "trial":
            by_workload[line["workload"]].append(line)
    for workload, trials in by_workload.items():
        out.append(f"\n== {workload} ==\n{_table(_rows(trials))}")
    problems = [line for line in lines if line["kind"] in ("fault", "skipped")
                or (line["kind"] == "verification" and not line["passed"])]
    if problems:
        out.append("\n== not measured ==")
        for line in problems:
            what = line["framework"] + (f" {line['workload']}" if line.get("workload") else "")
            kind = {"fault": f"fault at {line.get('stage')}", "skipped": "skipped",
                    "verification": "failed verification"}[line["kind"]]
            out.append(f"{what}: {kind}: {line['reason']}")
    return "\n".join(out) if out else "(no results)"
