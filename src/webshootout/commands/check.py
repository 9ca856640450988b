"""`shootout check`: start each selected framework and prove every declared workload meets the contract."""

from __future__ import annotations

import tempfile
from pathlib import Path

from ..stacks import catalog
from .. import harness
from ..hosts import placement
from ..harness import Fault
from ..console import say
from ..config.settings import Settings


def _shown(tail: str) -> str:
    return "\n".join("  | " + line for line in tail.splitlines())


def run(settings: Settings, stack=harness) -> int:
    variants = settings.variants()
    failures: list[str] = []

    def stop_fault(variant: catalog.Variant):
        def record(fault: Fault) -> None:
            failures.append(variant.id)
            print(f"{variant.id}: FAILED at stop: {fault.reason}")
        return record

    with tempfile.TemporaryDirectory(prefix="shootout-check-") as tmp:
        work = Path(tmp)
        with placement.placed(settings.hosts, say, catalog.available_ids(variants)) as where, \
                stack.environment(work, work / "logs", settings.server_cpus, stack.needs_database(variants),
                                  where) as env:
            for variant in variants:
                if variant.unavailable:
                    print(f"{variant.id}: unavailable ({variant.unavailable})")
                    continue
                try:
                    with stack.serving(variant, env, install=settings.install,
                                       on_stop_fault=stop_fault(variant)) as served:
                        print(f"{variant.id}: runs as {served.user}")
                        for verification in served.check(harness.workloads_of(variant, settings.workloads)):
                            workload = verification.workload
                            if verification.passed:
                                closes = verification.keepalive and not verification.keepalive.kept_alive
                                print(f"{variant.id} {workload}: ok" + (" (closes connections, as its manifest "
                                                                        "states)" if closes else ""))
                            else:
                                failures.append(f"{variant.id} {workload}")
                                print(f"{variant.id} {workload}: FAILED: {verification.reason}\n"
                                      f"  server log (last lines):\n{_shown(verification.log_tail)}")
                except harness.Failed as exc:
                    failures.append(variant.id)
                    print(f"{variant.id}: FAILED at {exc.fault}")
    say("all checks passed" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0
