"""`shootout ab ID ID --calibrate`: what `ab` can tell on this machine, measured with a change of known size.

The same two servers of `ab` (A and B of one stack) first run an A/A, where any difference called is a false
alarm; then B's cgroup is held to 97 % of the server CPUs (system/cgroup.py: cpu_quota) and the rows run
again as part "ab-quota", where a server that keeps its CPUs busy is about 3 % slower. report/calibration.py
turns both into false alarms, power and the smallest change this machine decides in 5 and 15 minutes.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
import time

from .. import harness
from ..console import say
from ..report import abreport, calibration
from ..stacks import catalog
from ..system import cgroup
from . import ab

QUOTA = 0.97
QUOTA_PART = "ab-quota"


def _quota_rows(rows: list[ab.Row]) -> list[ab.Row]:
    """The same workloads and points, their trials counted afresh under another part's name."""
    renamed = []
    for row in rows:
        subjects = {side: dataclasses.replace(s, part=dataclasses.replace(s.part, name=QUOTA_PART))
                    for side, s in row.subjects.items()}
        renamed.append(ab.Row(row.workload, row.point, subjects))
    return renamed


def _group(served: harness.Served) -> cgroup.Group:
    running = getattr(getattr(served, "server", None), "running", None)  # a remote server has no local group
    group = getattr(running, "group", None)
    if not isinstance(group, (cgroup.V1, cgroup.V2)):
        raise cgroup.CgroupError("--calibrate holds B to a CPU quota through its cgroup: it needs a server on this "
                                 "machine in a writable cgroup hierarchy")
    return group


def calibrate(session: ab.Session, rows: list[ab.Row], order: random.Random,
              sides: tuple[catalog.Variant, catalog.Variant]) -> int:
    """The A/A, then the A/B under the quota, then what they say; the session's run directory gets ab-aa.json,
    ab-quota.json and calibrate.json."""
    options, rundir = session.options, session.ctx.rundir
    try:
        group = _group(session.served["B"])
    except cgroup.CgroupError as exc:
        say(f"ab --calibrate: {exc}")
        return 2
    started = time.monotonic()
    plan = session.measure(rows, order)
    seconds_per_pair = (time.monotonic() - started) / max(1, sum(len(r.trials["A"]) for r in rows))
    aa = abreport.result(sides, ab.by_row(rows), plan, options.max_trials)
    quota_cpus = QUOTA * len(session.ctx.settings.server_cpus)
    quota_rows = _quota_rows(rows)
    say(f"calibrate: A/A done; now the same rows with B held to {quota_cpus:g} CPUs")
    with cgroup.cpu_quota(group, quota_cpus):
        quota_plan = session.measure(quota_rows, order)
    quota = abreport.result(sides, ab.by_row(quota_rows), quota_plan, options.max_trials)
    found = calibration.summary(aa, quota, seconds_per_pair, quota_cpus)
    for name, content in (("ab-aa.json", aa), ("ab-quota.json", quota), ("calibrate.json", found)):
        (rundir.path / name).write_text(json.dumps(content, indent=2) + "\n")
    print("\n".join(["A/A: " + abreport.headline(aa), f"B at {QUOTA:.0%} CPU: " + abreport.headline(quota),
                     calibration.render(found)]), file=sys.stdout)
    say(f"ab-aa.json, ab-quota.json and calibrate.json in {rundir.path}")
    return 0


def run(settings, argv: list[str], sides: tuple[catalog.Variant, catalog.Variant], options: ab.Options, *,
        driver=None, stack=harness) -> int:
    if sides[0].folder != sides[1].folder or sides[0].start != sides[1].start:
        say("ab --calibrate: A and B must be one stack as it is (ID ID, no --b-dir or --a-env/--b-env)")
        return 2
    options = dataclasses.replace(options, instead=lambda session, rows, order: calibrate(session, rows, order, sides))
    return ab.run(settings, argv, sides, options, driver=driver, stack=stack)
