"""`shootout ab A B`: is B faster or slower than A, and by how much, on a noisy machine.

Both servers are started, verified and warmed up once; then per workload and load point the trials run in
pairs, A then B or B then A by a seeded coin (meta.json's `ab.order_seed`), each after the settle every trial
has, the rows taking turns pair by pair. Whatever the machine does meanwhile (a drift, a slow phase) falls
on either side of a pair with equal chance, so with nothing changed each pair's log ratio is as likely
positive as negative, whatever the phases: what the signed-rank interval of the verdict needs to be exact.
The verdict (report/verdict.py) is read at the looks of the design (report/sequential.py: every 8 pairs,
and the last); a row stops once its gating ratios are decided, the run once every row is or has
`max_trials` pairs.
Exit status: 0 decided (faster, or no difference within the threshold), 1 a gating ratio slower or
costlier, 3 inconclusive when the pairs ran out, 2 an error.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import secrets
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
from ..report import abreport, sequential, verdict
from ..results import machine
from ..results.rundir import RunDir, new_run_dir
from ..stacks import catalog
from ..engine.lines import StackFailed, Subject, fault_line
from ..engine.context import Progress, RunContext, driver_for

# At most 48 pairs a row (8 minutes of trials for two rows at 3 s, settles and warm-ups besides): on the
# simulated machine of tests/commands/test_ab_simulated.py that finds a 3 % slowdown in 87 % of runs at 3 %
# trial noise with two rows (40 pairs: 80 %). A decided row stops at the first look that decides it.
MAX_TRIALS = 48
DURATION = 3.0
THRESHOLD = 2.0  # percent
PART = "ab"


@dataclass(frozen=True)
class Options:
    threshold: float  # a fraction: 0.02 = 2 %
    max_trials: int  # pairs, per workload and load point
    gates: tuple[str, ...] = ("throughput",)
    seed: int | None = None  # of the pairs' order; drawn when None
    # --calibrate (commands/abcalibrate.py): measures the rows instead of the verdict, returns the exit status
    instead: Callable[[Session, list[Row], random.Random], int] | None = None


def looks(max_trials: int) -> tuple[int, ...]:
    return sequential.schedule(max_trials)


@dataclass
class Row:
    """A workload at a load point, both sides' subjects, and each side's trial lines so far."""

    workload: str
    point: Point
    subjects: dict[str, Subject]
    trials: dict[str, list[dict]] = field(default_factory=lambda: {"A": [], "B": []})
    ratios: list = field(default_factory=list)
    decided: bool = False


def alternate(rows: list[Row], run_trial: Callable[[Row, str, int], None], judge: Callable[[Row], None],
              at: tuple[int, ...], order: random.Random) -> None:
    """Pair n of every row still open, its order drawn, the verdict judged at each look, until every row is
    decided or has the last look's pairs."""
    open_rows = list(rows)
    for number in range(1, at[-1] + 1):
        if not open_rows:
            return
        for row in open_rows:
            for side in ("A", "B") if order.random() < 0.5 else ("B", "A"):
                run_trial(row, side, number)
        if number in at:
            for row in open_rows:
                judge(row)
            open_rows = [row for row in open_rows if not row.decided]


def judge(row: Row, plan: verdict.Plan) -> None:
    row.ratios = verdict.row(row.trials["A"], row.trials["B"], plan)
    row.decided = verdict.decided(row.ratios, plan)


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

    def measure(self, rows: list[Row], order: random.Random) -> verdict.Plan:
        """The rows' pairs until each is decided or the pairs run out; the plan they were judged by."""
        plan = verdict.plan(len(rows), looks(self.options.max_trials), self.options.threshold, self.options.gates)
        # At most: a decided row stops early.
        self.ctx.progress = Progress(2 * self.options.max_trials * len(rows), self.ctx.settings.duration + 1)
        alternate(rows, self.trial, lambda row: judge(row, plan), plan.design.looks, order)
        return plan


def _settings(settings: Settings, sides: tuple[catalog.Variant, catalog.Variant], options: Options) -> Settings:
    part = Part(PART, tuple(v.id for v in sides), settings.workloads, settings.parts[0].profile)
    return dataclasses.replace(settings, frameworks=part.frameworks, parts=(part,), trials=options.max_trials,
                               interleave=False)


def by_row(rows: list[Row]) -> list[tuple[str, str, list[dict], list[dict]]]:
    return [(r.workload, r.point.label, r.trials["A"], r.trials["B"]) for r in rows]


def run(settings: Settings, argv: list[str], sides: tuple[catalog.Variant, catalog.Variant], options: Options, *,
        driver=None, stack=harness) -> int:
    settings = _settings(settings, sides, options)
    seed = secrets.randbits(32) if options.seed is None else options.seed
    rundir = RunDir(new_run_dir(settings.out or settings.root / "runs", "ab"))
    rundir.create()
    say(f"run directory: {rundir.path}")
    try:
        with stack.environment(rundir.path / "work", rundir.logs, settings.server_cpus,
                               stack.needs_database(list(sides))) as env:
            meta = machine.describe(settings, list(sides), argv, machine.session(
                settings.root, argv, env.postgres.version if env.postgres else None))
            meta["ab"] = {"a": sides[0].id, "b": sides[1].id, "threshold": options.threshold,
                          "max_trials": options.max_trials, "gates": list(options.gates),
                          "order": "each pair's order by a coin", "order_seed": seed}
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
                if options.instead is not None:
                    return options.instead(session, rows, random.Random(seed))
                plan = session.measure(rows, random.Random(seed))
    except (StackFailed, DriverError) as exc:
        say(f"ab: {exc}; the trials measured are in {rundir.results}")
        return 2
    except KeyboardInterrupt:
        say(f"interrupted: the trials measured are in {rundir.results}")
        return 130
    result = abreport.result(sides, by_row(rows), plan, options.max_trials)
    (rundir.path / "ab.json").write_text(json.dumps(result, indent=2) + "\n")
    (rundir.path / "ab.html").write_text(abreport.render_html(result))
    print(abreport.render_terminal(result), file=sys.stdout)
    say(f"ab.json and ab.html in {rundir.path}")
    return result["exit"]
