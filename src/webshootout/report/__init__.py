"""Exporters: each turns a run's summary into text; the caller decides where it goes."""

from __future__ import annotations

from pathlib import Path

from ..results.rundir import RunDir
from . import conform_table, html, markdown, summary, terminal

FORMATS = {"terminal": terminal.render, "markdown": markdown.render, "html": html.render, "json": summary.to_json}
FILES = {"report.html": "html", "report.md": "markdown", "summary.json": "json"}


def write_all(run_dir: Path) -> dict:
    """Writes report.html, report.md and summary.json into the run directory; returns the summary."""
    rundir = RunDir(run_dir)
    data = summary.summarize(rundir.read_meta(), rundir.lines())
    for name, fmt in FILES.items():
        tmp = run_dir / f".{name}.tmp"
        tmp.write_text(render(run_dir, fmt, data))
        tmp.replace(run_dir / name)
    return data


def render(run_dir: Path, fmt: str, data: dict) -> str:
    """The run's report in format `fmt`, its conform table (if it has one) after the rest."""
    return conform_table.appended(FORMATS[fmt](data), fmt, run_dir)
