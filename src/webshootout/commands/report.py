"""`shootout report RUN_DIR`: write report.html, report.md and summary.json into the run, print one format."""

from __future__ import annotations

from pathlib import Path

from .. import report


def run(run_dir: Path, fmt: str = "terminal") -> int:
    data = report.write_all(run_dir)
    print(report.render(run_dir, fmt, data), end="" if fmt == "json" else "\n")
    return 0
