"""`shootout run`: per framework, setup -> start -> verify -> warm-up and trials per load point -> stop."""

from __future__ import annotations

import dataclasses
import statistics
import sys
import time
from datetime import datetime, timezone

from .. import catalog, harness, load, machine, process, profiles, provision
from ..harness import Fault, say
from ..load import DriverError, LoadSpec
from ..process import log_tail
from ..profiles import Point
from ..report import terminal, write_all
from ..results import RunDir, new_run_dir, trial_key
from ..sampler import Sampler
from ..settings import Settings
from ..suites import Part
from ..workloads import MODULES

CLIENT_BOUND_CPU = 90.0


class ServerDied(Exception):
    pass


class Progress:
    """Counts trials to show where the run is and roughly how long is left."""

    def __init__(self, total: int, seconds_per_trial: float):
        self.total, self.done, self.per_trial = total, 0, seconds_per_trial
        self.started = time.monotonic()

    def line(self, what: str) -> str:
        elapsed = time.monotonic() - self.started
        left = max(0, self.total - self.done) * self.per_trial
        return f"[{self.done + 1}/{self.total} | {elapsed:.0f}s elapsed, ~{left:.0f}s left] {what}"


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _fault_line(variant: catalog.Variant, fault: Fault, workload: str | None = None) -> dict:
    return {"kind": "fault", "framework": variant.id, "workload": workload, "stage": fault.stage,
            "reason": fault.reason, "log_tail": fault.log_tail, "time": _now()}


def _point_fields(part: Part, point: Point) -> dict:
    return {"part": part.name, "point": point.label, "profile": point.mode, "connections": point.connections,
            "rate": point.rate, "hash_n": point.hash_n, "workers": part.profile.workers,
            "slo_p99_ms": part.profile.slo_p99_ms,
            "burst_steps": list(point.burst.steps) if point.burst else None,
            "burst_step_seconds": point.burst.step_seconds if point.burst else None}


def _trial_line(variant, workload, part, point, trial, result, usage, load_cpus) -> dict:
    client_cpu = 100.0 * result.client_cpu_s / result.duration_s / max(1, len(load_cpus)) if result.duration_s else 0
    flags = ["client-bound"] if client_cpu >= CLIENT_BOUND_CPU else []
    if sum(result.errors.values()):
        flags.append("errors")
    if result.target_rate and (result.achieved_rate or 0) < profiles.BELOW_RATE * result.target_rate:
        flags.append("below-rate")
    if result.requests == 0:  # e.g. a server that stopped answering: requests still in flight are no errors yet
        flags.append("no-responses")
    return {"kind": "trial", "framework": variant.id, "display": variant.display, "language": variant.language,
            "workload": workload, **_point_fields(part, point), "trial": trial, "time": _now(),
            **result.to_dict(), "client_cpu_percent": round(client_cpu, 1),
            "server_cpu_percent": round(usage.cpu_percent, 1), "server_rss_peak_mb": round(usage.rss_peak_mb, 1),
            "server_rss_mean_mb": round(usage.rss_mean_mb, 1), "flags": flags}


def _target(workload: str, ctx, point: Point):
    module = MODULES[workload]
    if point.hash_n is not None:
        return module.target(ctx, n=point.hash_n)
    if point.sessions is not None:
        return module.target(ctx, sessions=point.sessions)
    return module.target(ctx)


def _measure(variant, srv, env, settings, part, rundir, workload, done, progress) -> None:
    """Every load point of the workload; an automatic rate sweep first measures closed-loop capacity."""
    ctx = harness.context(srv, env, workload)
    capacity = None
    # A JIT stack's own warm-up (start.warmup) compiles the workload's code paths once; later points of
    # the same workload run on compiled code and get the run's warm-up.
    warmup = max(settings.warmup, variant.start.warmup or 0.0)
    for point in profiles.points(part.profile, workload):
        rates, measured = _measure_point(variant, srv, env, settings, part, rundir, workload, point, ctx, done,
                                         progress, warmup)
        warmup = settings.warmup if measured else warmup
        if capacity is None and point.mode == "closed":
            capacity = statistics.median(rates) if rates else None
    if profiles.needs_capacity(part.profile, workload) and capacity:
        say(f"{variant.id} {workload}: closed-loop capacity {capacity:,.0f} req/s; sweeping open-loop rates")
        for point in profiles.points(part.profile, workload, capacity):
            _measure_point(variant, srv, env, settings, part, rundir, workload, point, ctx, done, progress,
                           settings.warmup)


def _measure_point(variant, srv, env, settings, part, rundir, workload, point, ctx, done, progress,
                   warmup: float) -> tuple[list[float], bool]:
    """Warm-up and the trials not yet recorded; returns the req/s of every trial of the point, and whether
    any was measured now (a resumed run may have them all)."""
    driver = load.DRIVERS[settings.driver]
    log = rundir.logs / f"{variant.id}.load.log"
    target = _target(workload, ctx, point)
    keys = {t: (part.name, variant.id, workload, point.label, t) for t in range(1, settings.trials + 1)}
    todo = [t for t, key in keys.items() if key not in done]
    rates = [done[key] for key in keys.values() if key in done]
    if not todo:
        return rates, False

    def spec(duration: float, burst=point.burst) -> LoadSpec:
        return LoadSpec(ctx.host, ctx.port, target, point.connections, len(settings.load_cpus), duration,
                        settings.load_cpus, rate=point.rate, burst=burst)

    where = f"{variant.id} {workload} {point.label}"
    harness.settle(srv)
    if env.postgres:
        env.postgres.reset()
    if warmup > 0:
        say(progress.line(f"{where} warm-up {warmup:g}s"))
        driver(spec(warmup, burst=None), log)  # a burst warms up at its first step
    for trial in todo:
        if env.postgres:
            env.postgres.reset()
        say(progress.line(f"{where} trial {trial}/{settings.trials}"))
        # PostgreSQL shares the server CPUs: sample it too, so db-bound results show where CPU went.
        database = Sampler(env.postgres.running.processes if env.postgres else list)
        with Sampler(srv.running.processes) as sampler, database:
            result = driver(spec(point.burst.duration if point.burst else settings.duration), log)
        if not srv.running.alive():
            raise ServerDied(f"the server exited (code {srv.running.popen.returncode}) during "
                             f"{workload} {point.label} trial {trial}")
        line = _trial_line(variant, workload, part, point, trial, result, sampler.usage, settings.load_cpus)
        line["database_cpu_percent"] = round(database.usage.cpu_percent, 1)
        rundir.append(line)
        rates.append(result.rps)
        progress.done += 1
        say(f"    {result.rps:,.0f} req/s, p99 {(result.latency_us['p99'] or 0) / 1000:.2f} ms, "
            f"errors {sum(result.errors.values())}, server CPU {sampler.usage.cpu_percent:.0f} %")
    return rates, True


def _run_variant(variant, env, settings, part, rundir, done, progress) -> None:
    workloads = harness.workloads_of(variant, part.workloads)
    if variant.unavailable:
        say(f"{variant.id}: skipped, unavailable: {variant.unavailable}")
        rundir.append({"kind": "skipped", "framework": variant.id, "workload": None, "part": part.name,
                       "reason": f"unavailable: {variant.unavailable}", "time": _now()})
        return
    started = harness.prepare_and_start(variant, env, install=settings.install)
    if isinstance(started, Fault):
        say(f"{variant.id}: FAILED at {started}")
        rundir.append(_fault_line(variant, started))
        return
    srv = started
    try:
        for workload in workloads:
            reason = harness.settle(srv) or harness.verify(srv, env, workload)
            rundir.append({"kind": "verification", "framework": variant.id, "workload": workload,
                           "part": part.name, "passed": reason is None, "reason": reason,
                           "log_tail": log_tail(srv.log) if reason else "", "time": _now()})
            if reason:
                say(f"{variant.id} {workload}: verification FAILED, not measured: {reason}")
                continue
            if workload == "websocket" and settings.driver not in load.WEBSOCKET_DRIVERS:
                rundir.append({"kind": "skipped", "framework": variant.id, "workload": workload, "time": _now(),
                               "reason": f"the {settings.driver} driver cannot drive WebSocket connections"})
                continue
            try:
                _measure(variant, srv, env, settings, part, rundir, workload, done, progress)
            except DriverError as exc:
                say(f"{variant.id} {workload}: load driver failed: {exc}")
                rundir.append(_fault_line(variant, Fault("trial", str(exc)), workload))
    except ServerDied as exc:
        say(f"{variant.id}: {exc}")
        rundir.append(_fault_line(variant, Fault("trial", str(exc), log_tail(srv.log))))
    finally:
        leak = srv.stop()
        if leak:
            say(f"{variant.id}: FAULT at stop: {leak}")
            rundir.append(_fault_line(variant, Fault("stop", leak)))


def _trial_count(settings: Settings, catalog_variants: list[catalog.Variant]) -> int:
    """Trials the plan will run (an automatic rate sweep counted at its declared steps)."""
    count = 0
    for part in settings.plan:
        for variant in catalog.select(catalog_variants, part.frameworks):
            if variant.unavailable:
                continue
            for workload in harness.workloads_of(variant, part.workloads):
                count += len(profiles.points(part.profile, workload))
                if profiles.needs_capacity(part.profile, workload):
                    count += part.profile.rate_sweep.steps * len(part.profile.connections)
    return count * settings.trials


def run(settings: Settings, argv: list[str]) -> int:
    everything = catalog.discover(settings.root)
    variants = catalog.select(everything, settings.frameworks)
    provision.ensure_harness_tools(say)  # a fresh machine has no wrk or ab yet
    process.raise_fd_limit()  # before any server or load generator starts: they inherit it
    if settings.resume:
        rundir = RunDir(settings.resume)
        rundir.read_meta()
    else:
        rundir = RunDir(new_run_dir(settings.out or settings.root / "runs", settings.suite_name))
    rundir.create()
    done = {trial_key(line): line["rps"] for line in rundir.lines() if line["kind"] == "trial"}
    meta = machine.describe(settings, variants, argv)
    rundir.write_meta(meta)
    say(f"run directory: {rundir.path}")
    progress = Progress(max(0, _trial_count(settings, everything) - len(done)),
                        settings.duration + settings.warmup / settings.trials + 1)
    try:
        with harness.environment(rundir.path / "work", rundir.logs, settings.server_cpus,
                                 harness.needs_database(variants)) as env:
            if env.postgres:
                meta["tools"]["postgres"] = env.postgres.version
                rundir.write_meta(meta)
            for part in settings.plan:
                part_env = dataclasses.replace(env, workers=part.profile.workers)
                for variant in catalog.select(everything, part.frameworks):
                    _run_variant(variant, part_env, settings, part, rundir, done, progress)
    except KeyboardInterrupt:
        say(f"interrupted: finished trials are kept in {rundir.results}; continue with "
            f"--resume {rundir.path}")
        return 130
    print(terminal.render(write_all(rundir.path)), file=sys.stdout)  # writes report.html, report.md, summary.json
    say(f"results: {rundir.results}")
    return 0
