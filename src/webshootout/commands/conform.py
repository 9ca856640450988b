"""`shootout conform`: the conform probes (docs/conform.md) against each selected id that is built, over
cleartext HTTP/1.1; a table per id and family, and conform.json. Servers start and stop as check's do."""

from __future__ import annotations

import argparse
import contextlib
import tempfile
import time
from dataclasses import replace
from datetime import datetime, timezone
from pathlib import Path

from .. import harness
from ..conform import catalog, record, runner
from ..conform.probe import FAMILIES, Probe
from ..engine import check_transport
from . import conform_h2
from .conform_h2 import Probes
from ..conform.target import Target
from ..conform.wire import Limits
from ..config.settings import Settings, SettingsError, parse_list
from ..console import say
from ..report.terminal import table
from ..stacks import catalog as stacks_catalog
from ..stacks import provision
from ..workloads import registry

SHOWN = 2000  # bytes of a probe's request and answer that --probe prints


def add_parser(sub) -> None:
    p = sub.add_parser("conform", help="send each built framework the conform probes (bad and hostile requests)")
    p.add_argument("--frameworks", metavar="IDS", help="comma-separated framework ids (variants included)")
    p.add_argument("--probe", metavar="NAME", help="only this probe, printing the bytes sent and the answer")
    p.add_argument("--families", metavar="NAMES", help=f"only these probe families, among {','.join(FAMILIES)}")
    p.add_argument("--slow", action="store_true", help="also the slow probes (slowloris: up to a minute per id)")
    p.add_argument("--out", metavar="DIR", help="where conform.json goes (default runs/conform-<time>)")


class _Serving:
    """One id's server as the runner's Subject: restart() stops it and starts a fresh one (check's lifecycle)."""

    def __init__(self, variant: stacks_catalog.Variant, env, stack, settings: Settings):
        self.variant, self.env, self.stack, self.settings = variant, env, stack, settings
        self._held = contextlib.ExitStack()
        self.restart()

    def restart(self) -> None:
        self.close()
        self._held = contextlib.ExitStack()
        self.served = self._held.enter_context(self.stack.serving(
            self.variant, self.env, install=self.settings.install,
            on_stop_fault=self._stop_fault))

    def _stop_fault(self, fault) -> None:
        """How the server stopped, when not cleanly (killed after the grace, or leaving processes): said, since
        it is the server's, not a probe's, and it takes time from the id's probing."""
        print(f"{self.variant.id}: on stopping: {fault.reason}")

    def target(self) -> Target:
        srv = self.served.server
        return Target(srv.host, srv.port, _aim(self.variant), self.variant.path_of(registry.BODY),
                      tls=srv.ca is not None, ca=srv.ca, memory=self.memory)

    def memory(self) -> int | None:
        """The server's process group's memory (its cgroup's count), None where it cannot be read."""
        try:
            return self.served.server.running.group.memory_bytes()
        except (OSError, AttributeError, ValueError, KeyError):
            return None

    def alive(self) -> bool:
        return self.served.alive()

    def close(self) -> None:
        self._held.close()


class _Envs:
    """The environment servers start in, and the same with the run's certificate (made when first needed)."""

    def __init__(self, plain):
        self.plain, self._tls = plain, None

    def tls(self):
        if self._tls is None:
            self._tls = check_transport.with_certs(self.plain)
        return self._tls


def _shown(data: bytes) -> str:
    more = f" ... ({len(data):,} bytes in all)" if len(data) > SHOWN else ""
    return repr(data[:SHOWN]) + more


def _aim(variant: stacks_catalog.Variant) -> str | None:
    """The path the probes ask for: the quick workload's; for a server of HTTP/2 alone (gRPC), its first
    HTTP/2-only workload's, where h2spec alone is aimed (its cases judge frames, whatever the answer's status)."""
    quick = variant.path_of(registry.QUICK)
    return quick or next((variant.path_of(w.name) for w in registry.REGISTRY.values()
                          if w.http2_only and variant.path_of(w.name)), None)


def _why_not(variant: stacks_catalog.Variant) -> str | None:
    if variant.unavailable:
        return f"unavailable ({variant.unavailable})"
    if _aim(variant) is None:
        return f"maps no {registry.QUICK} path nor an HTTP/2-only workload's, the probes' target"
    if not provision.is_built(variant):
        return f"not built: ./shootout setup --frameworks {variant.id}"
    return None


def probe_stack(subject: _Serving, probes: tuple[Probe, ...], show: bool, findings: list[runner.Finding]) -> None:
    """Appends each probe's finding to `findings` as it comes, so a server that fails to restart keeps them."""
    vid = subject.variant.id
    for probe in probes:
        finding, seen = runner.probe_once(probe, subject, Limits())
        findings.append(finding)
        if show and seen is not None:
            print(f"{vid} {probe.name}: sent {_shown(seen.sent)}\n{vid} {probe.name}: got {_shown(seen.received)}")
        if show or finding.grade in ("fail", "warn"):
            print(f"{vid} {probe.name}: {finding.grade}: {finding.reason}")


def _one(variant, envs: _Envs, stack, settings: Settings, probes: Probes, show: bool) -> record.Stack:
    result, started = record.Stack(variant.id), time.monotonic()
    result.http2 = conform_h2.transport_of(variant)
    if variant.path_of(registry.QUICK) is None:  # gRPC alone: our probes expect the quick workload's answer
        probes = replace(probes, h1=(), h2=(), calls_only=True)
    try:
        with contextlib.closing(_Serving(variant, envs.plain, stack, settings)) as subject:
            probe_stack(subject, probes.h1, show, result.findings)
            if result.http2 == "h2c":
                conform_h2.probe(subject, probes, show, result, probe_stack)
        if result.http2 == "h2+tls" and (probes.h2 or probes.h2spec):
            with contextlib.closing(_Serving(variant, envs.tls(), stack, settings)) as subject:
                conform_h2.probe(subject, probes, show, result, probe_stack)
    except harness.Failed as exc:
        result.error = f"failed at {exc.fault.stage}" + (" (restarting it after a probe)" if result.findings else "")
        print(f"{variant.id}: FAILED at {exc.fault}")
    result.seconds = time.monotonic() - started
    say(f"{variant.id}: {len(result.findings)} probes in {result.seconds:.1f} s")
    return result


def _excluded(variants, stacks: list[record.Stack]) -> list:
    """The variants that can be probed; each other one is said and recorded with its reason."""
    ready = []
    for variant in variants:
        reason = _why_not(variant)
        if reason:
            print(f"{variant.id}: {reason}")
            stacks.append(record.Stack(variant.id, error=reason))
        else:
            ready.append(variant)
    return ready


def _sweep(ready: list, env, stack, settings: Settings, probes: Probes, show: bool) -> list[record.Stack]:
    probes.h2spec = probes.h2spec and conform_h2.h2spec_for(ready, say)
    envs = _Envs(env)
    return [_one(v, envs, stack, settings, probes, show) for v in ready]


def _write(stacks: list[record.Stack], probes: Probes, out: Path, started: datetime) -> None:
    print(table(record.HEADER, record.rows(stacks), {0}))
    record.write(out / "conform.json", record.document(stacks, probes.all(), started.isoformat(timespec="seconds")))
    say(f"wrote {out / 'conform.json'}")


def stage(settings: Settings, run_dir: Path, variants: list, env, stack=harness) -> None:
    """`run`'s conform stage (--conform): every probe but the slow ones against each measured id, in the run's
    environment, its conform.json beside the results (the report adds its table)."""
    say("conform: the probes against each stack (docs/conform.md)")
    probes, started, stacks = conform_h2.split(None, False), datetime.now(timezone.utc), []
    ready = _excluded(variants, stacks)
    stacks += _sweep(ready, env, stack, settings, probes, False)
    _write(stacks, probes, run_dir, started)


def run(settings: Settings, args: argparse.Namespace, stack=harness) -> int:
    if args.probe is not None and args.probe not in catalog.BY_NAME and args.probe != "h2spec":
        print(f"shootout: error: no probe {args.probe!r}; the probes: {', '.join(catalog.BY_NAME)}, h2spec")
        return 2
    try:
        families = parse_list("--families", getattr(args, "families", None), FAMILIES) or FAMILIES
    except SettingsError as exc:
        print(f"shootout: error: {exc}")
        return 2
    probes = conform_h2.split(args.probe, args.slow, families)
    started, stacks = datetime.now(timezone.utc), []
    ready = _excluded(settings.variants(), stacks)
    with tempfile.TemporaryDirectory(prefix="shootout-conform-") as tmp:
        work = Path(tmp)
        with stack.environment(work, work / "logs", settings.server_cpus, stack.needs_database(ready)) as env:
            stacks += _sweep(ready, env, stack, settings, probes, args.probe is not None)
    _write(stacks, probes, settings.out or settings.root / "runs" / f"conform-{started:%Y%m%d-%H%M%S}", started)
    return 1 if any(s.error and s.error.startswith("failed") for s in stacks) else 0
