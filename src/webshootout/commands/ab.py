"""`shootout ab A B`: is B faster or slower than A, and by how much, on a noisy machine.

Both servers are started, verified and warmed up once; then per workload and load point the trials
alternate A B B A, A B B A, ... (each after the settle every trial has), so that whatever the machine
does meanwhile falls on both sides alike and each pair (A n, B n) ran side by side in time. The verdict
(report/verdict.py) is read after every LOOK_EVERY pairs from MIN_PAIRS on; a row stops once all its
intervals are decided, the run once every row has or `max_trials` a side are run.
Exit status: 0 no regression past the threshold, 1 a regression, 2 an error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import sys
from dataclasses import dataclass, field
from typing import Callable

from .. import harness
from ..config import profiles
from ..config.profiles import Point
from ..config.settings import Settings
from ..config.suites import Part
from ..console import say
from ..load import DriverError
from ..report import abreport, verdict
from ..results import machine
from ..results.rundir import RunDir, new_run_dir
from ..stacks import catalog
from ..engine.lines import StackFailed, Subject, fault_line
from ..engine.context import Progress, RunContext, driver_for

# A ~5-minute answer for two workloads: 20 trials a side of 3 s, with their settles and warm-ups.
MAX_TRIALS = 20
DURATION = 3.0
THRESHOLD = 2.0  # percent
MIN_PAIRS = 8
LOOK_EVERY = 4
PART = "ab"
# The order of one block of two pairs: A B B A. Each side goes first as often as second, so a steady
# drift within a block, or a server that gains from following the other, lands on both.
BLOCK = (("A", 0), ("B", 0), ("B", 1), ("A", 1))


@dataclass(frozen=True)
class Options:
    threshold: float  # a fraction: 0.02 = 2 %
    max_trials: int  # a side, per workload and load point


def looks(max_trials: int) -> list[int]:
    """The numbers of pairs at which the verdict is read: every LOOK_EVERY from MIN_PAIRS, and the last."""
    first = min(MIN_PAIRS, max_trials)
    return sorted(set(range(first, max_trials + 1, LOOK_EVERY)) | {max_trials})


@dataclass
class Row:
    """A workload at a load point, both sides' subjects, and each side's trial lines so far."""

    workload: str
    point: Point
    subjects: dict[str, Subject]
    trials: dict[str, list[dict]] = field(default_factory=lambda: {"A": [], "B": []})
    ratios: list = field(default_factory=list)

    @property
    def decided(self) -> bool:
        return bool(self.ratios) and all(r.decided for r in self.ratios)


def alternate(rows: list[Row], run_trial: Callable[[Row, str, int], None], judge: Callable[[Row], None],
              max_trials: int) -> None:
    """Blocks of A B B A for every row still open, the verdict judged at each look, until every row is
    decided or has `max_trials` a side."""
    at = looks(max_trials)
    open_rows = list(rows)
    done = 0
    while open_rows and done < max_trials:
        for row in open_rows:
            for side, offset in BLOCK:
                if done + offset < max_trials:
                    run_trial(row, side, done + offset + 1)
        done += 2
        if any(done >= n > done - 2 for n in at):
            for row in open_rows:
                judge(row)
            open_rows = [row for row in open_rows if not row.decided]


class Session:
    """One ab: the run context of `run`, two servers, the rows both verified."""

    def __init__(self, ctx: RunContext, options: Options):
        self.ctx, self.options = ctx, options
        self.served: dict[str, harness.Served] = {}

    def rows(self, part: Part) -> list[Row]:
        passed = {side: set(self.ctx.verified(part, served)) for side, served in self.served.items()}
        rows = []
        for workload in harness.workloads_of(self.served["A"].variant, part.workloads):
            if workload not in passed["A"] & passed["B"] or not self.ctx.drivable(part, self.served["A"].variant,
                                                                                      workload):
                continue
            subjects = {side: Subject(part, s, workload, s.context(workload)) for side, s in self.served.items()}
            rows += [Row(workload, point, subjects) for point in profiles.points(part.profile, workload)]
        return rows

    def trial(self, row: Row, side: str, number: int) -> None:
        subject, settings = row.subjects[side], self.ctx.settings
        warmup = max(settings.warmup, subject.variant.start.warmup or 0.0) if number == 1 else settings.warmup
        self.ctx.idle = tuple(s for other, s in self.served.items() if other != side)
        try:
            self.ctx.next_trial(subject, row.point, number, warmup, first=number == 1)
        finally:
            self.ctx.idle = ()
        row.trials[side].append(self.ctx.rundir.lines()[-1])

    def judge(self, row: Row) -> None:
        row.ratios = verdict.row(row.trials["A"], row.trials["B"], self.options.threshold,
                                 len(looks(self.options.max_trials)))


def _settings(settings: Settings, sides: tuple[catalog.Variant, catalog.Variant], options: Options) -> Settings:
    part = Part(PART, tuple(v.id for v in sides), settings.workloads, settings.parts[0].profile)
    return dataclasses.replace(settings, frameworks=part.frameworks, parts=(part,), trials=options.max_trials,
                               interleave=False)


def run(settings: Settings, argv: list[str], sides: tuple[catalog.Variant, catalog.Variant], options: Options, *,
        driver=None, stack=harness) -> int:
    settings = _settings(settings, sides, options)
    rundir = RunDir(new_run_dir(settings.out or settings.root / "runs", "ab"))
    rundir.create()
    say(f"run directory: {rundir.path}")
    rows: list[Row] = []
    try:
        with stack.environment(rundir.path / "work", rundir.logs, settings.server_cpus,
                               stack.needs_database(list(sides))) as env:
            meta = machine.describe(settings, list(sides), argv, machine.session(
                settings.root, argv, env.postgres.version if env.postgres else None))
            meta["ab"] = {"a": sides[0].id, "b": sides[1].id, "threshold": options.threshold,
                          "max_trials": options.max_trials, "order": "A B B A"}
            rundir.write_meta(meta)
            ctx = RunContext(settings, rundir, env, driver or driver_for(settings, None), {},
                             Progress(0, settings.duration + 1), 0, stack,
                             stack.cpu_link(settings.server_cpus, settings.load_cpus, None))
            session = Session(ctx, options)
            with contextlib.ExitStack() as servers:
                for side, variant in zip("AB", sides):
                    try:
                        session.served[side] = servers.enter_context(ctx.serving(variant, env))
                    except harness.Failed as exc:
                        say(f"ab: {variant.id} FAILED at {exc.fault}")
                        rundir.append(fault_line(variant, exc.fault))
                        return 2
                rows = session.rows(settings.parts[0])
                if not rows:
                    say("ab: no workload passed verification on both sides; nothing to compare")
                    return 2
                # At most: a decided row stops early.
                ctx.progress = Progress(2 * options.max_trials * len(rows), settings.duration + 1)
                alternate(rows, session.trial, session.judge, options.max_trials)
    except (StackFailed, DriverError) as exc:
        say(f"ab: {exc}; the trials measured are in {rundir.results}")
        return 2
    except KeyboardInterrupt:
        say(f"interrupted: the trials measured are in {rundir.results}")
        return 130
    result = abreport.result(sides, [(r.workload, r.point.label, r.trials["A"], r.trials["B"]) for r in rows],
                             options.threshold, options.max_trials, len(looks(options.max_trials)))
    (rundir.path / "ab.json").write_text(json.dumps(result, indent=2) + "\n")
    (rundir.path / "ab.html").write_text(abreport.render_html(result))
    print(abreport.render_terminal(result), file=sys.stdout)
    say(f"ab.json and ab.html in {rundir.path}")
    return result["exit"]
