"""`shootout check`: start each selected framework and prove every declared workload meets the contract."""

from __future__ import annotations

import tempfile
from pathlib import Path

from .. import catalog, harness
from ..harness import say
from ..process import log_tail
from ..settings import Settings


def run(settings: Settings) -> int:
    variants = catalog.select(catalog.discover(settings.root), settings.frameworks)
    failures = 0
    with tempfile.TemporaryDirectory(prefix="shootout-check-") as tmp:
        work = Path(tmp)
        with harness.environment(work, work / "logs", settings.server_cpus,
                                 harness.needs_database(variants)) as env:
            for variant in variants:
                if variant.unavailable:
                    print(f"{variant.id}: unavailable ({variant.unavailable})")
                    continue
                started = harness.prepare_and_start(variant, env, install=settings.install)
                if isinstance(started, harness.Fault):
                    failures += 1
                    print(f"{variant.id}: FAILED at {started}")
                    continue
                try:
                    for workload in harness.workloads_of(variant, settings.workloads):
                        reason = harness.verify(started, env, workload)
                        if reason is None:
                            print(f"{variant.id} {workload}: ok")
                        else:
                            failures += 1
                            tail = "\n".join("  | " + line for line in log_tail(started.log).splitlines())
                            print(f"{variant.id} {workload}: FAILED: {reason}\n  server log (last lines):\n{tail}")
                finally:
                    leak = started.stop()
                    if leak:
                        failures += 1
                        print(f"{variant.id}: FAILED at stop: {leak}")
    say("all checks passed" if not failures else f"{failures} check(s) failed")
    return 1 if failures else 0
