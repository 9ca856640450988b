"""`shootout compare RUN_A RUN_B`: which results changed between two runs, and whether the change is real."""

from __future__ import annotations

from pathlib import Path

from ..report import compare, summary
from ..results.rundir import RunDir


def _summary(path: Path) -> dict:
    rundir = RunDir(path)
    return summary.summarize(rundir.read_meta(), rundir.lines())


def run(run_a: Path, run_b: Path, fmt: str = "terminal") -> int:
    result = compare.compare(_summary(run_a), _summary(run_b), str(run_a), str(run_b))
    print(compare.FORMATS[fmt](result), end="" if fmt != "terminal" else "\n")
    return 0
