"""Exporters: each turns a run's summary into text; the caller decides where it goes."""

from __future__ import annotations

from pathlib import Path

from ..results.rundir import RunDir
from . import html, markdown, summary, terminal

FORMATS = {"terminal": terminal.render, "markdown": markdown.render, "html": html.render, "json": summary.to_json}
FILES = {"report.html": "html", "report.md": "markdown", "summary.json": "json"}


def write_all(run_dir: Path) -> dict:
    """Writes report.html, report.md and summary.json into the run directory; returns the summary."""
    rundir = RunDir(run_dir)
    data = summary.summarize(rundir.read_meta(), rundir.lines())
    for name, fmt in FILES.items():
        tmp = run_dir / f".{name}.tmp"
        tmp.write_text(FORMATS[fmt](data))
        tmp.replace(run_dir / name)
    return data
