"""One run's state and its steps: measuring each point of each stack in rounds (rounds.py) over the transports it
serves (transports.py), writing each trial's line (lines.py) and saying how long is left (eta.py)."""


from __future__ import annotations

import contextlib
import dataclasses
import statistics
import time
from dataclasses import dataclass
from typing import Callable

from ..stacks import catalog
from ..system import cpulink, jit, process, steal
from ..system.speed import Speed, SpeedError
from .. import harness, load
from ..hosts import placement
from ..config import profiles
from ..harness import Fault, Served
from ..console import say
from ..load import DriverError, LoadResult, LoadSpec
from ..load import remote as remote_load
from ..config.profiles import Point
from ..results.rundir import RunDir
from ..server import Environment
from ..services.postgres import PostgresError
from ..config.settings import Settings
from ..config.suites import Part
from ..workloads import registry
from .lines import StackFailed, Subject, TrialId, Usages, fault_line, keepalive_of, trial_line, warmed_by
from ..results import records
from . import eta, rounds, transports
from .steps import Stack

# Warm-up of every trial, in the trial's own load process: its connections are new, so their first requests
# (and the server's per-connection set-up) stay out of the window.
TRIAL_WARMUP = 0.25
# A point's first warm-up ends once three one-second windows of throughput are on average within this many
# percent of the three before, up or down (or at the warm-up given, which is then a cap): a JIT stack is warm
# when its throughput neither climbs nor dips while it compiles.
STEADY_PERCENT = 3.0

# A trial whose server JIT compiled for more than jit.LIMIT_PERCENT of a CPU becomes warm-up and runs again,
# at most this many times (jit.py says why).
JIT_RERUNS = 4

Driver = Callable[..., LoadResult]  # (LoadSpec, log path) -> LoadResult


class Progress:
    """Counts trials to show where the run is and how long is left (eta.py: from what trials cost so far)."""

    def __init__(self, total: int, seconds_per_trial: float, plan=None, previous: dict | None = None):
        self.total, self.done = total, 0
        self.started = time.monotonic()
        self.eta = eta.Eta(plan or {eta.ANY: total}, seconds_per_trial, previous)

    def finished(self, kind: eta.Kind) -> None:
        self.done += 1
        self.eta.finished(kind)

    def line(self, what: str) -> str:
        elapsed = time.monotonic() - self.started
        return f"[{self.done + 1}/{self.total} | {elapsed:.0f}s elapsed, {self.eta.estimate().text()}] {what}"


@dataclass
class RunContext:
    """One run's shared state; its methods are the steps of `shootout run`."""

    settings: Settings
    rundir: RunDir
    env: Environment
    driver: Driver
    done: dict  # trial_key -> req/s of trials already recorded (a resumed run)
    progress: Progress
    session: int  # index of this start of the run in meta.json's sessions
    stack: Stack = harness  # what starts servers: the harness, or a fake in unit tests
    link: cpulink.Link | None = None  # how far apart the server and load CPUs are, where it can be measured
    speed: Speed | None = None  # the machine's speed probe (system/speed.py), where it runs
    seed: int = 0  # of the rounds' order (rounds.py), recorded in this session's entry of meta.json
    idle: tuple[Served, ...] = ()  # servers kept warm, not measured, whose CPU each trial records (rounds.py)
    tls_env: Environment | None = None  # the run's environment with its certificate, made for its first TLS lineup

    def run_part(self, part: Part, variants: list[catalog.Variant]) -> None:
        env = dataclasses.replace(self.env, workers=part.profile.workers)
        for lineup, served_env in transports.lineups(self, part, catalog.select(variants, part.frameworks), env):
            if self.settings.interleave:
                rounds.run_part(self, part, lineup, served_env)
                continue
            for variant in lineup:
                self.run_variant(part, variant, served_env)

    def available(self, part: Part, variant: catalog.Variant) -> bool:
        """False, having recorded the skip, for a variant that cannot run here."""
        if variant.unavailable:
            say(f"{variant.id}: skipped, unavailable: {variant.unavailable}")
            self.rundir.append(records.Skipped(variant.id, None, f"unavailable: {variant.unavailable}", part.name))
        return not variant.unavailable

    def serving(self, variant: catalog.Variant, env: Environment):
        """The harness's lifecycle of one server, its leak at stop recorded as a fault."""
        def stop_fault(fault: Fault) -> None:
            say(f"{variant.id}: FAULT at stop: {fault.reason}")
            self.rundir.append(fault_line(variant, fault))

        return self.stack.serving(variant, env, install=self.settings.install, on_stop_fault=stop_fault)

    def verified(self, part: Part, served: Served) -> list[str]:
        """Records every workload's verification; returns those that passed it."""
        verifications = served.check(harness.workloads_of(served.variant, part.workloads))
        for verification in verifications:
            self.record(part, served, verification)
        return [v.workload for v in verifications if v.passed]

    def failed(self, served: Served, exc: StackFailed) -> None:
        say(f"{served.variant.id}: {exc}")
        self.rundir.append(fault_line(served.variant, Fault("trial", str(exc), served.log_tail())))

    def run_variant(self, part: Part, variant: catalog.Variant, env: Environment) -> None:
        if not self.available(part, variant):
            return
        try:
            with self.serving(variant, env) as served:
                try:
                    for workload in self.verified(part, served):
                        self.run_workload(part, served, workload)
                except StackFailed as exc:
                    self.failed(served, exc)
        except harness.Failed as exc:
            say(f"{variant.id}: FAILED at {exc.fault}")
            self.rundir.append(fault_line(variant, exc.fault))

    def record(self, part: Part, served: Served, verification: harness.Verification) -> None:
        """Writes the verification line."""
        variant, workload = served.variant, verification.workload
        tls = served.tls
        reason = f"over TLS: {verification.reason}" if tls and verification.reason else verification.reason
        self.rundir.append(records.Verification(variant.id, workload, verification.passed, reason,
                                                verification.log_tail, part.name, keepalive_of(verification),
                                                served.user, tls))
        if not verification.passed:
            say(f"{variant.id} {workload}: verification FAILED, not measured: {reason}")

    def drivable(self, part: Part, variant: catalog.Variant, workload: str) -> bool:
        """False, having recorded the skip, for a workload the driver cannot drive."""
        if registry.get(workload).messages and self.settings.driver not in load.WEBSOCKET_DRIVERS:
            self.rundir.append(records.Skipped(
                variant.id, workload, f"the {self.settings.driver} driver cannot drive WebSocket connections", part.name))
            return False
        return True

    def run_workload(self, part: Part, served: Served, workload: str) -> None:
        variant = served.variant
        if not self.drivable(part, variant, workload):
            return
        try:
            self.measure(Subject(part, served, workload, served.context(workload)))
        except DriverError as exc:
            say(f"{variant.id} {workload}: load driver failed: {exc}")
            self.rundir.append(fault_line(variant, Fault("trial", str(exc)), workload))

    def measure(self, subject: Subject) -> None:
        """Every load point of the workload; an automatic rate sweep first measures closed-loop capacity."""
        profile = subject.part.profile
        capacity = None
        # A JIT stack's own warm-up (start.warmup) compiles the workload's code paths once; later points of
        # the same workload run on compiled code and get the run's warm-up.
        warmup = max(self.settings.warmup, subject.variant.start.warmup or 0.0)
        for point in transports.points_of(self, subject):
            rates, measured = self.measure_point(subject, point, warmup)
            warmup = self.settings.warmup if measured else warmup
            if capacity is None and point.mode == "closed":
                capacity = statistics.median(rates) if rates else None
        if profiles.needs_capacity(profile, subject.workload) and capacity:
            say(f"{subject.variant.id} {subject.workload}: closed-loop capacity {capacity:,.0f} req/s; "
                f"sweeping open-loop rates")
            for point in transports.points_of(self, subject, capacity):
                self.measure_point(subject, point, self.settings.warmup)

    def measure_point(self, subject: Subject, point: Point, warmup: float) -> tuple[list[float], bool]:
        """Warm-up and the trials not yet recorded; returns the req/s of every trial of the point, and whether
        any was measured now (a resumed run may have them all)."""
        keys = {t: (subject.part.name, subject.variant.id, subject.workload, point.label, t)
                for t in range(1, self.settings.trials + 1)}
        todo = [t for t, key in keys.items() if key not in self.done]
        rates = [self.done[key] for key in keys.values() if key in self.done]
        if not todo:
            return rates, False
        for trial in todo:
            rates.append(self.next_trial(subject, point, trial, warmup, first=trial == todo[0]))
        return rates, True

    def next_trial(self, subject: Subject, point: Point, trial: int, warmup: float, *, first: bool) -> float:
        """A trial of the point, after the point's warm-up when it is the `first` measured now; its req/s."""
        where = f"{subject.variant.id} {subject.workload} {point.label}"
        inside = self.settings.driver in load.IN_PROCESS_WARMUP
        # Every trial is measured alike, over connections of its own that it first warms up (native): the
        # point's warm-up is a load run of its own before them, which then counts as the first trial's.
        warmed = [self._warm_up(subject, point, warmup, inside, where)] if first and warmup > 0 else []
        trial_warmup = min(warmup, TRIAL_WARMUP) if inside else 0.0
        say(self.progress.line(f"{where} trial {trial}/{self.settings.trials}"
                               + (f" (warm-up {trial_warmup:g}s)" if trial_warmup else "")))
        return self.trial(subject, point, trial, trial_warmup, warmed)

    def _warm_up(self, subject: Subject, point: Point, warmup: float, inside: bool, where: str) -> LoadResult:
        """The point's warm-up: with shootout-load until throughput holds its level (warmup the cap), with wrk
        and ab for `warmup` seconds."""
        self._settle(subject)
        steady = inside and warmup >= 1
        say(self.progress.line(f"{where} warm-up " + (f"until steady, at most {warmup:g}s" if steady
                                                       else f"{warmup:g}s")))
        point = dataclasses.replace(point, burst=None)
        if inside:  # the window is only what ends the run: it is warm-up too
            return self._drive(subject, point, TRIAL_WARMUP, warmup, STEADY_PERCENT if steady else None)
        return self._drive(subject, point, warmup, 0.0)

    def trial(self, subject: Subject, point: Point, trial: int, warmup: float, warmed: list[LoadResult]) -> float:
        """One measured trial on a settled server and a freshly reset database; returns its req/s. `warmed`:
        load runs before it that count as its warm-up.

        A trial during which the server's JIT compiled for more than jit.LIMIT_PERCENT % of a CPU measured the
        compiler, not warm code: it becomes warm-up, and the trial runs again, up to JIT_RERUNS times."""
        discarded = list(warmed)
        while True:
            result, usages, measured = self._measure(subject, point, trial, warmup)
            compiling = usages.server.jit_cpu_percent
            if compiling is None or compiling <= jit.LIMIT_PERCENT or len(discarded) - len(warmed) == JIT_RERUNS:
                break
            say(f"    {result.rps:,.0f} req/s while the JIT compiled for {compiling:.0f} % of a CPU: "
                f"warm-up, run again")
            discarded.append(result)
        self.rundir.append(trial_line(subject, point, TrialId(trial, self.session, len(discarded) - len(warmed)),
                                      warmed_by(result, discarded), usages, measured))
        self.progress.finished(eta.Kind(subject.part.name, point.connections, first=bool(warmed)))
        say(f"    {result.rps:,.0f} req/s, p99 {(result.latency_us['p99'] or 0) / 1000:.2f} ms, "
            f"errors {sum(result.errors.values())}, server CPU {usages.server.cpu_percent:.0f} %"
            + (f", JIT {compiling:.1f} %" if compiling is not None else ""))
        return result.rps

    def _measure(self, subject: Subject, point: Point, trial: int,
                 warmup: float) -> tuple[LoadResult, Usages, cpulink.Measured | None]:
        self._settle(subject)
        # Outside the samplers: a wait for the CPUs must not count as the server's idle time.
        before, waited = self._link(lambda link: link.wait_near(say)) or (None, 0.0)
        speed_before = self._speed()
        server, database = subject.served.samplers()
        stolen = None if self.settings.hosts else {"server": steal.Steal(self.settings.server_cpus),
                                                   "load": steal.Steal(self.settings.load_cpus)}
        idle = [served.idle_sampler() for served in self.idle]
        # Pinned first, so the samplers' threads start away from the server CPUs too.
        with process.pin_harness(self.settings.server_cpus), server, database, contextlib.ExitStack() as others:
            for sampler in idle:
                others.enter_context(sampler)
            result = self._drive(subject, point, point.burst.duration if point.burst else self.settings.duration,
                                 warmup)
        steal_percent = None if stolen is None else {role: round(s.percent(), 2) for role, s in stolen.items()}
        if not subject.served.alive():
            raise StackFailed(f"the server exited (code {subject.served.exit_code()}) during "
                             f"{subject.workload} {point.label} trial {trial}")
        self._after_mix(subject, result, f"{subject.workload} {point.label} trial {trial}")
        measured = None
        if before is not None:
            # The probe's thread on the server CPU must not share it with the load's last requests.
            subject.served.settle()
            measured = self._link(lambda link: link.after(before, waited))
        speed_after = self._speed()
        speed = {"before": speed_before, "after": speed_after} if speed_before and speed_after else None
        cpus = len(self.settings.load_cpus)
        client_cpu = 100.0 * result.client_cpu_s / result.duration_s / cpus if result.duration_s else 0.0
        # Like the requests and the client's CPU, the server's CPU is the measured window's where it is known.
        server_usage, database_usage, *idle_usages = ((s.during(*result.window) if result.window else s.usage)
                                                      for s in (server, database, *idle))
        idle_cpu = sum(u.cpu_percent for u in idle_usages) if idle else None
        return result, Usages(server_usage, database_usage, client_cpu, steal_percent, idle_cpu, speed), measured

    @staticmethod
    def _after_mix(subject: Subject, result: LoadResult, where: str) -> None:
        """A mix's state after its load (crud: the table against the creates and deletes answered): a stack whose
        answers said one thing and whose database holds another fails."""
        check = registry.get(subject.workload).after_mix
        problem = check(subject.context, result.mix) if check and result.mix is not None else None
        if problem:
            raise StackFailed(f"{where}: {problem}")

    def _link(self, step: Callable[[cpulink.Link], object]):
        """A step of the CPU link, or None when there is none or it failed (then it is dropped, said once)."""
        if self.link is None:
            return None
        try:
            return step(self.link)
        except cpulink.LinkError as exc:
            say(f"cannot measure how far apart the server and load CPUs are any more, so trials no longer wait "
                f"for them: {exc}")
            self.link = None
            return None

    def _speed(self) -> float | None:
        """A probe of the machine's speed, or None when there is none or it failed (then it is dropped, said
        once)."""
        if self.speed is None:
            return None
        try:
            return round(self.speed.measure(), 3)
        except SpeedError as exc:
            say(f"cannot measure the machine's speed any more, so trials no longer record it: {exc}")
            self.speed = None
            return None

    def _settle(self, subject: Subject) -> None:
        """Lets the server drain what the last load left queued; resets the database state."""
        reason = subject.served.settle()
        if reason and not subject.served.alive():  # e.g. between rounds, while other servers were measured
            raise StackFailed(f"the server exited (code {subject.served.exit_code()}) before {subject.workload}")
        if reason:
            raise StackFailed(f"the server did not answer before {subject.workload}: {reason}")
        if self.env.postgres:
            try:
                self.env.postgres.reset()
            except PostgresError as exc:
                raise StackFailed(str(exc)) from None

    def _drive(self, subject: Subject, point: Point, duration: float, warmup: float,
               steady: float | None = None) -> LoadResult:
        ctx, cpus = subject.context, self.settings.load_cpus
        spec = LoadSpec(ctx.host, ctx.port, registry.get(subject.workload).target_at(ctx, point.value), point.connections, len(cpus),
                        duration, cpus, rate=point.rate, burst=point.burst, warmup=warmup,
                        warmup_steady=steady, keepalive=point.keepalive, pipeline=point.pipeline,
                        requests_per_connection=point.per_connection or None,
                        tls_ca=ctx.link.ca, http=point.http, streams=point.streams)
        return self.driver(spec, self.rundir.logs / f"{subject.variant.id}.load.log")


def driver_for(settings: Settings, where: placement.Placement | None) -> Driver:
    if where is None:
        return load.DRIVERS[settings.driver]
    return remote_load.driver_on(where.remote("load"))
