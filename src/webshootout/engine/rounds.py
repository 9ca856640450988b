"""`run`'s interleaved order: every server of a part started and warmed once, then the part's trials in rounds.

Round n runs trial n of every row (stack x workload x load point) still missing it, in an order shuffled
by the session's seed (meta.json), so a slow phase of the machine falls on every row alike instead of on
the stack that happened to run in it, and each row's trials sample the whole part. The servers not
measured stay up, idle; each trial records their CPU meanwhile (idle_cpu_percent) to show they kept still.
"""

from __future__ import annotations

import contextlib
import random
import secrets
import statistics
from dataclasses import dataclass, field

from .. import harness
from ..config import profiles
from ..config.profiles import Point
from ..config.suites import Part
from ..console import say
from ..load import DriverError
from ..server import Environment
from ..stacks import catalog
from .steps import Steps
from .lines import StackFailed, Subject, fault_line
from . import transports


def new_seed() -> int:
    return secrets.randbits(32)


def round_order(keys: list, seed: int, part: str, number: int) -> list:
    """One round's rows in the order the seed fixes for this part and round (reproducible from meta.json)."""
    ordered = sorted(keys)
    random.Random(f"{seed}/{part}/{number}").shuffle(ordered)
    return ordered


@dataclass
class Row:
    """One stack's workload at one load point: its trial numbers and what it measured."""

    subject: Subject
    point: Point
    warmup: float  # its point's warm-up, run before the first trial measured now
    todo: list[int]
    rates: list[float] = field(default_factory=list)
    started: bool = False

    @property
    def key(self) -> tuple[str, str, str]:
        return self.subject.variant.id, self.subject.workload, self.point.label


def _rows(ctx: Steps, subject: Subject, points: list[Point], warmup: float) -> list[Row]:
    """The rows of a workload's points; the first with trials to run takes `warmup` (a JIT stack's own)."""
    rows = []
    for point in points:
        keys = {t: (subject.part.name, subject.variant.id, subject.workload, point.label, t)
                for t in range(1, ctx.settings.trials + 1)}
        row = Row(subject, point, warmup, [t for t, key in keys.items() if key not in ctx.done],
                  [ctx.done[key] for key in keys.values() if key in ctx.done])
        if row.todo:
            warmup = ctx.settings.warmup
        rows.append(row)
    return rows


class Lineup:
    """The servers of one part, kept up together, and the rounds over their rows."""

    def __init__(self, ctx, part: Part):
        self.ctx, self.part = ctx, part
        self.served: dict[str, harness.Served] = {}
        self.stops: dict[str, contextlib.ExitStack] = {}

    def serve(self, variants: list[catalog.Variant], env: Environment, outer: contextlib.ExitStack) -> list[Subject]:
        """Starts and verifies every variant; returns a subject per workload that passed and can be driven."""
        subjects = []
        for variant in variants:
            if not self.ctx.available(self.part, variant):
                continue
            stop = outer.enter_context(contextlib.ExitStack())
            try:
                served = stop.enter_context(self.ctx.serving(variant, env))
            except harness.Failed as exc:
                say(f"{variant.id}: FAILED at {exc.fault}")
                self.ctx.rundir.append(fault_line(variant, exc.fault))
                continue
            self.served[variant.id], self.stops[variant.id] = served, stop
            subjects += [Subject(self.part, served, w, served.context(w)) for w in self.ctx.verified(self.part, served)
                         if self.ctx.drivable(self.part, variant, w)]
        return subjects

    def drop(self, variant_id: str, exc: Exception) -> None:
        """A server that can no longer be measured: recorded, stopped, its rows skipped from now on."""
        served = self.served.pop(variant_id)
        self.ctx.failed(served, exc)
        self.stops.pop(variant_id).close()

    def rounds(self, rows: list[Row]) -> None:
        by_key = {row.key: row for row in rows}
        for number in range(1, self.ctx.settings.trials + 1):
            due = [row.key for row in rows if number in row.todo]
            for key in round_order(due, self.ctx.seed, self.part.name, number):
                row = by_key[key]
                if row.subject.variant.id in self.served and row.todo:
                    self.trial(row, number)

    def trial(self, row: Row, number: int) -> None:
        subject, variant = row.subject, row.subject.variant
        self.ctx.idle = tuple(s for vid, s in self.served.items() if vid != variant.id)
        try:
            row.rates.append(self.ctx.next_trial(subject, row.point, number, row.warmup, first=not row.started))
            row.started = True
        except StackFailed as exc:
            self.drop(variant.id, exc)
        except DriverError as exc:
            say(f"{variant.id} {subject.workload}: load driver failed: {exc}")
            self.ctx.rundir.append(fault_line(variant, harness.Fault("trial", str(exc)), subject.workload))
            row.todo.clear()
        finally:
            self.ctx.idle = ()
        if number in row.todo:
            row.todo.remove(number)


def run_part(ctx: Steps, part: Part, variants: list[catalog.Variant], env: Environment) -> None:
    """Every server of the part up at once; the part's closed-loop and fixed-rate rows in rounds, then the
    rate sweeps their capacity decides, in rounds of their own."""
    here = Lineup(ctx, part)
    with contextlib.ExitStack() as outer:
        subjects = here.serve(variants, env, outer)
        first: list[Row] = []
        for subject in subjects:
            jit_warmup = max(ctx.settings.warmup, subject.variant.start.warmup or 0.0)
            first += _rows(ctx, subject, transports.points_of(ctx, subject), jit_warmup)
        here.rounds(first)
        sweeps: list[Row] = []
        for subject in subjects:
            closed = [r for r in first if r.subject is subject and r.point.mode == "closed" and r.rates]
            if not (profiles.needs_capacity(part.profile, subject.workload) and closed):
                continue
            capacity = statistics.median(closed[0].rates)
            say(f"{subject.variant.id} {subject.workload}: closed-loop capacity {capacity:,.0f} req/s; "
                f"sweeping open-loop rates")
            sweeps += _rows(ctx, subject, transports.points_of(ctx, subject, capacity), ctx.settings.warmup)
        here.rounds(sweeps)
