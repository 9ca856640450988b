"""`shootout report RUN_DIR`: print the tables again from the run's files."""

from __future__ import annotations

from pathlib import Path

from ..report import terminal
from ..results import RunDir


def run(run_dir: Path) -> int:
    rundir = RunDir(run_dir)
    rundir.read_meta()
    print(terminal.render(rundir.lines()))
    return 0
