"""`shootout run`: per framework, setup -> start -> verify -> warm-up and trials per load point -> stop."""

from __future__ import annotations

import sys
import time
from datetime import datetime, timezone

from .. import catalog, harness, load, machine, provision
from ..harness import Fault, say
from ..load import DriverError, LoadSpec
from ..process import log_tail
from ..report import terminal
from ..results import RunDir, new_run_dir
from ..sampler import Sampler
from ..settings import Settings
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


def _trial_line(variant, workload, connections, trial, result, usage, load_cpus) -> dict:
    client_cpu = 100.0 * result.client_cpu_s / result.duration_s / max(1, len(load_cpus)) if result.duration_s else 0
    flags = ["client-bound"] if client_cpu >= CLIENT_BOUND_CPU else []
    if sum(result.errors.values()):
        flags.append("errors")
    return {"kind": "trial", "framework": variant.id, "display": variant.display, "language": variant.language,
            "workload": workload, "connections": connections, "trial": trial, "time": _now(),
            **result.to_dict(), "client_cpu_percent": round(client_cpu, 1),
            "server_cpu_percent": round(usage.cpu_percent, 1), "server_rss_peak_mb": round(usage.rss_peak_mb, 1),
            "server_rss_mean_mb": round(usage.rss_mean_mb, 1), "flags": flags}


def _measure(variant, srv, env, settings, rundir, workload, done, progress) -> None:
    ctx = harness.context(srv, env, workload)
    driver = load.DRIVERS[settings.driver]
    target = MODULES[workload].target(ctx)
    warmup = max(settings.warmup, variant.start.warmup or 0.0)
    log = rundir.logs / f"{variant.id}.load.log"
    for connections in settings.connections:
        todo = [t for t in range(1, settings.trials + 1) if (variant.id, workload, connections, t) not in done]
        if not todo:
            continue

        def spec(duration: float) -> LoadSpec:
            return LoadSpec(ctx.host, ctx.port, target, connections, len(settings.load_cpus), duration,
                            settings.load_cpus)

        if env.postgres:
            env.postgres.reset()
        if warmup > 0:
            say(progress.line(f"{variant.id} {workload} c={connections} warm-up {warmup:g}s"))
            driver(spec(warmup), log)
        for trial in todo:
            if env.postgres:
                env.postgres.reset()
            say(progress.line(f"{variant.id} {workload} c={connections} trial {trial}/{settings.trials}"))
            # PostgreSQL shares the server CPUs: sample it too, so db-bound results show where CPU went.
            database = Sampler(env.postgres.running.processes if env.postgres else list)
            with Sampler(srv.running.processes) as sampler, database:
                result = driver(spec(settings.duration), log)
            if not srv.running.alive():
                raise ServerDied(f"the server exited (code {srv.running.popen.returncode}) during "
                                 f"{workload} trial {trial}")
            line = _trial_line(variant, workload, connections, trial, result, sampler.usage, settings.load_cpus)
            line["database_cpu_percent"] = round(database.usage.cpu_percent, 1)
            rundir.append(line)
            progress.done += 1
            say(f"    {result.rps:,.0f} req/s, p99 {(result.latency_us['p99'] or 0) / 1000:.2f} ms, "
                f"errors {sum(result.errors.values())}, server CPU {sampler.usage.cpu_percent:.0f} %")


def _run_variant(variant, env, settings, rundir, done, progress) -> None:
    workloads = harness.workloads_of(variant, settings.workloads)
    if variant.unavailable:
        rundir.append({"kind": "skipped", "framework": variant.id, "workload": None,
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
            reason = harness.verify(srv, env, workload)
            rundir.append({"kind": "verification", "framework": variant.id, "workload": workload,
                           "passed": reason is None, "reason": reason,
                           "log_tail": log_tail(srv.log) if reason else "", "time": _now()})
            if reason:
                say(f"{variant.id} {workload}: verification FAILED, not measured: {reason}")
                continue
            if workload == "websocket" and settings.driver not in load.WEBSOCKET_DRIVERS:
                rundir.append({"kind": "skipped", "framework": variant.id, "workload": workload, "time": _now(),
                               "reason": f"the {settings.driver} driver cannot drive WebSocket connections"})
                continue
            try:
                _measure(variant, srv, env, settings, rundir, workload, done, progress)
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


def run(settings: Settings, argv: list[str]) -> int:
    variants = catalog.select(catalog.discover(settings.root), settings.frameworks)
    provision.ensure_harness_tools(say)  # a fresh machine has no wrk or ab yet
    if settings.resume:
        rundir = RunDir(settings.resume)
        rundir.read_meta()
    else:
        rundir = RunDir(new_run_dir(settings.out or settings.root / "runs", settings.suite_name))
    rundir.create()
    done = rundir.done_trials()
    meta = machine.describe(settings, variants, argv)
    rundir.write_meta(meta)
    say(f"run directory: {rundir.path}")
    runnable = [v for v in variants if not v.unavailable]
    trials = sum(len(harness.workloads_of(v, settings.workloads)) for v in runnable) * len(settings.connections) \
        * settings.trials
    progress = Progress(max(0, trials - len(done)), settings.duration + settings.warmup / settings.trials + 1)
    try:
        with harness.environment(rundir.path / "work", rundir.logs, settings.server_cpus,
                                 harness.needs_database(variants)) as env:
            if env.postgres:
                meta["tools"]["postgres"] = env.postgres.version
                rundir.write_meta(meta)
            for variant in variants:
                _run_variant(variant, env, settings, rundir, done, progress)
    except KeyboardInterrupt:
        say(f"interrupted: finished trials are kept in {rundir.results}; continue with "
            f"--resume {rundir.path}")
        return 130
    print(terminal.render(rundir.lines()), file=sys.stdout)
    say(f"results: {rundir.results}")
    return 0
