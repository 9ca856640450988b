"""`shootout run`: per framework, setup -> start -> verify -> warm-up and trials per load point -> stop (the
steps are the trial engine's, engine/)."""

from __future__ import annotations

import sys

from ..stacks import catalog, provision
from ..system import process
from .. import harness
from ..results import machine
from ..hosts import placement
from ..console import say
from ..report import render, summary, write_all
from . import conform
from ..results.rundir import RunDir, new_run_dir
from ..config.settings import Settings
from ..engine import eta, rounds
from ..engine.context import Driver, Progress, RunContext, driver_for
from ..engine.steps import Stack


def _open_run_dir(settings: Settings) -> RunDir:
    if settings.resume:
        rundir = RunDir(settings.resume)
        rundir.read_meta()
    else:
        rundir = RunDir(new_run_dir(settings.out or settings.root / "runs", settings.suite_name))
    rundir.create()
    return rundir


def run(settings: Settings, argv: list[str], *, driver: Driver | None = None, stack: Stack = harness) -> int:
    everything = catalog.discover(settings.root)
    variants = catalog.select(everything, settings.frameworks, settings.frameworks_named_in)
    if stack is harness:
        provision.ensure_harness_tools(say)  # a fresh machine has no wrk or ab yet
        process.raise_fd_limit()  # before any server or load generator starts: they inherit it
    rundir = _open_run_dir(settings)
    done = rundir.done_trials()
    say(f"run directory: {rundir.path}")
    left = eta.plan(settings, everything, done)
    progress = Progress(sum(left.values()), settings.duration + settings.warmup / settings.trials + 1, left,
                        eta.previous_costs(rundir.path.parent, settings.suite_name, rundir.path))
    need_database = stack.needs_database(variants)
    try:
        with placement.placed(settings.hosts, say, catalog.available_ids(variants)) as where, \
                stack.environment(rundir.path / "work", rundir.logs, settings.server_cpus, need_database,
                                  where) as env:
            session = machine.session(settings.root, argv, env.postgres.version if env.postgres else None)
            session["interleave_seed"] = rounds.new_seed() if settings.interleave else None
            if where is not None:  # each session's, as a resumed run may find the hosts changed
                session["topology"] = placement.topology(where, rundir.logs, need_database, say)
            if settings.resume:
                meta = rundir.read_meta()
                meta.setdefault("sessions", []).append(session)
            else:
                meta = machine.describe(settings, variants, argv, session)
            rundir.write_meta(meta)
            with stack.machine_speed(settings.load_cpus, where) as speed:
                context = RunContext(settings, rundir, env, driver or driver_for(settings, where), done, progress,
                                     len(meta["sessions"]) - 1, stack,
                                     link=stack.cpu_link(settings.server_cpus, settings.load_cpus, where),
                                     speed=speed, seed=session["interleave_seed"] or 0)
                for part in settings.parts:
                    context.run_part(part, everything)
            if settings.conform and where is None:  # after the trials: no probe disturbs a measured server
                conform.stage(settings, rundir.path, variants, env, stack)
            # The session's speed beside its trials, for whoever reads meta.json alone (the report has it too).
            meta["sessions"][-1]["machine_speed"] = summary.machine_speed(
                [line for line in rundir.lines() if line.get("session") == context.session])
            rundir.write_meta(meta)
    except KeyboardInterrupt:
        say(f"interrupted: finished trials are kept in {rundir.results}; continue with "
            f"--resume {rundir.path}")
        return 130
    print(render(rundir.path, "terminal", write_all(rundir.path)), file=sys.stdout)  # writes report.html, report.md, summary.json
    say(f"results: {rundir.results}")
    return 0
