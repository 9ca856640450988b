"""`shootout check`: start each selected framework and prove every declared workload meets the contract, over
cleartext HTTP/1.1 and every transport its [transport] table claims (check_transport.py)."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable, Collection

from ..stacks import catalog
from .. import harness
from ..hosts import placement
from ..harness import Fault
from ..console import say
from ..config.settings import Settings
from ..engine import check_transport


def _shown(tail: str) -> str:
    return "\n".join("  | " + line for line in tail.splitlines())


class _Checker:
    """Checks one variant after another, printing a line per workload and transport, keeping the failures."""

    def __init__(self, settings: Settings, env, stack, transports, transport_workloads):
        self.settings, self.env, self.stack = settings, env, stack
        self.transports, self.transport_workloads = transports, transport_workloads
        self.tls_env = None  # env with the run's certificate, made when a stack first claims TLS
        self.failures: list[str] = []

    def stop_fault(self, variant: catalog.Variant):
        def record(fault: Fault) -> None:
            self.failures.append(variant.id)
            print(f"{variant.id}: FAILED at stop: {fault.reason}")
        return record

    def serving(self, variant: catalog.Variant, env):
        return self.stack.serving(variant, env, install=self.settings.install, on_stop_fault=self.stop_fault(variant))

    def check(self, variant: catalog.Variant) -> None:
        workloads = harness.workloads_of(variant, self.settings.workloads)
        try:
            with self.serving(variant, self.env) as served:
                print(f"{variant.id}: runs as {served.user}")
                for verification in served.check(workloads):
                    self.report(variant, verification.workload, verification.reason, served,
                                verification.keepalive and not verification.keepalive.kept_alive)
                skip = self.transports(variant)
                if skip:
                    print(f"{variant.id}: transports not checked: {skip}")
                    return
                if self.transport_workloads is not None:
                    workloads = [w for w in workloads if w in self.transport_workloads]
                for outcome in check_transport.cleartext(served, workloads):
                    self.report_outcome(variant, outcome, served)
            if variant.transport.tls:
                if self.tls_env is None:
                    self.tls_env = check_transport.with_certs(self.env)
                with self.serving(variant, self.tls_env) as served:
                    print(f"{variant.id}: started again with TLS_CERT and TLS_KEY"
                          + (f", behind {variant.transport.proxy} terminating TLS" if variant.transport.proxy else ""))
                    for outcome in check_transport.tls(served, workloads):
                        self.report_outcome(variant, outcome, served)
        except harness.Failed as exc:
            self.failures.append(variant.id)
            print(f"{variant.id}: FAILED at {exc.fault}")

    def report_outcome(self, variant: catalog.Variant, outcome: check_transport.Outcome, served) -> None:
        if outcome.unchecked:
            print(f"{variant.id} {outcome.what}: not checked: {outcome.unchecked}")
        else:
            self.report(variant, outcome.what, outcome.reason, served)

    def report(self, variant: catalog.Variant, what: str, reason: str | None, served, closes: bool = False) -> None:
        if reason is None:
            print(f"{variant.id} {what}: ok" + (" (closes connections, as its manifest states)" if closes else ""))
            return
        self.failures.append(f"{variant.id} {what}")
        print(f"{variant.id} {what}: FAILED: {reason}\n  server log (last lines):\n{_shown(served.log_tail())}")


def run(settings: Settings, stack=harness,
        transports: Callable[[catalog.Variant], str | None] = lambda variant: None,
        transport_workloads: Collection[str] | None = None) -> int:
    """`transports(variant)` may say why that variant's transports besides cleartext HTTP/1.1 go unchecked
    (the lineup's, for a variant that serves them as its base does); None checks them all. Over them, the
    workloads among `transport_workloads` are checked again (None: every one)."""
    variants = settings.variants()
    with tempfile.TemporaryDirectory(prefix="shootout-check-") as tmp:
        work = Path(tmp)
        with placement.placed(settings.hosts, say, catalog.available_ids(variants)) as where, \
                stack.environment(work, work / "logs", settings.server_cpus, stack.needs_database(variants),
                                  where) as env:
            checker = _Checker(settings, env, stack, transports, transport_workloads)
            for variant in variants:
                if variant.unavailable:
                    print(f"{variant.id}: unavailable ({variant.unavailable})")
                    continue
                checker.check(variant)
    failures = checker.failures
    say("all checks passed" if not failures else f"{len(failures)} check(s) failed")
    return 1 if failures else 0
