"""The result lines `shootout run` writes: a trial's, a fault's."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..stacks import catalog
from ..system import cpulink, jit
from .. import harness
from ..config import profiles
from ..harness import Fault, Served
from ..load import LoadResult, request_errors
from ..config.profiles import Point
from ..system.sampler import Usage
from ..config.suites import Part
from ..workloads import Context
from ..results import records

CLIENT_BOUND_CPU = 90.0


def fault_line(variant: catalog.Variant, fault: Fault, workload: str | None = None) -> records.Fault:
    return records.Fault(variant.id, workload, fault.stage, fault.reason, fault.log_tail)


class StackFailed(Exception):
    """The server (or the database it uses) can no longer be measured: the rest of its trials are skipped."""


@dataclass(frozen=True)
class Subject:
    """What a workload's trials measure: one part of the suite, one started server, one workload."""

    part: Part
    served: Served
    workload: str
    context: Context

    @property
    def variant(self) -> catalog.Variant:
        return self.served.variant


def keepalive_of(verification: harness.Verification) -> dict | None:
    kept = verification.keepalive
    return None if kept is None else {"requests": kept.requests, "connections": kept.connections}


def flags_of(result: LoadResult, client_cpu: float, point: Point) -> list[str]:
    flags = ["client-bound"] if client_cpu >= CLIENT_BOUND_CPU else []
    if request_errors(result.errors, result.keepalive):  # a failed connect is the connect phase's, not an error
        flags.append("errors")
        # A server that answers only the first request of each batch fails the other pipeline - 1 of it; one
        # that pipelines but is overloaded (express at 16,384 x 16) times out far fewer than that.
        failed = result.errors["timeout"] + result.errors["read"]
        if point.pipeline > 1 and failed >= (point.pipeline - 1) / 2 * max(result.requests, 1):
            flags.append("no-pipelining")
    if result.target_rate and (result.achieved_rate or 0) < profiles.BELOW_RATE * result.target_rate:
        flags.append("below-rate")
    if result.requests == 0:  # e.g. a server that stopped answering: requests still in flight are no errors yet
        flags.append("no-responses")
    return flags


@dataclass(frozen=True)
class Usages:
    """What a trial cost besides the load: the server's and PostgreSQL's CPU and memory, the client's CPU."""

    server: Usage
    database: Usage
    client_cpu_percent: float  # 100 = every load CPU busy for the whole window
    # The share of the server's and the load's CPUs the hypervisor took over the load run (steal.py); None
    # where the roles run on other hosts.
    steal_percent: dict[str, float] | None = None
    # What the servers kept warm beside it (interleaved rounds) ran meanwhile, in all; None when none were.
    idle_cpu_percent: float | None = None
    # The machine's speed just before and just after (system/speed.py), million steps a second; None where the
    # probe does not run.
    machine_speed: dict[str, float] | None = None


@dataclass(frozen=True)
class TrialId:
    number: int  # 1..trials of its load point
    session: int  # index into meta.json's sessions: the run's start or the --resume that measured it
    jit_reruns: int = 0  # runs of it before, which became warm-up as the server's JIT compiled through them


def display_of(variant: catalog.Variant, point: Point) -> str:
    """The stack's name on a trial's row; over TLS behind the proxy of its production form, it says so."""
    proxy = point.tls and variant.transport.proxy
    return variant.display + (f", TLS by {proxy}" if proxy else "")


def trial_line(subject: Subject, point: Point, trial: TrialId, result: LoadResult, usages: Usages,
               link: cpulink.Measured | None = None) -> records.Trial:
    """The one place a trial's record is built."""
    compiling = usages.server.jit_cpu_percent
    variant, part, server, client_cpu = subject.variant, subject.part, usages.server, usages.client_cpu_percent
    return records.Trial(
        framework=variant.id, display=display_of(variant, point), language=variant.language,
        workload=subject.workload, part=part.name, point=point.label, profile=point.mode,
        connections=point.connections, rate=point.rate, axes=point.axis_fields(),
        tls=point.tls, http=point.http, streams=point.streams,
        workers=part.profile.workers, slo_p99_ms=part.profile.slo_p99_ms,
        burst_steps=list(point.burst.steps) if point.burst else None,
        burst_step_seconds=point.burst.step_seconds if point.burst else None,
        trial=trial.number, session=trial.session, load=result.to_dict(), client_cpu_percent=round(client_cpu, 1),
        server_cpu_percent=round(server.cpu_percent, 1), server_rss_peak_mb=round(server.rss_peak_mb, 1),
        server_rss_mean_mb=round(server.rss_mean_mb, 1), server_memory_method=server.memory_method,
        server_kernel_peak_mb=None if server.kernel_peak_mb is None else round(server.kernel_peak_mb, 1),
        database_cpu_percent=round(usages.database.cpu_percent, 1),
        cpu_link=link.to_dict() if link else None,
        jit_cpu_percent=None if compiling is None else round(compiling, 2), jit_reruns=trial.jit_reruns,
        steal_percent=usages.steal_percent,
        idle_cpu_percent=None if usages.idle_cpu_percent is None else round(usages.idle_cpu_percent, 2),
        machine_speed=usages.machine_speed,
        outside_contract=variant.outside_contract,
        flags=flags_of(result, client_cpu, point) + (["cpus-far"] if link and link.far else [])
        + (["jit-compiling"] if compiling is not None and compiling > jit.LIMIT_PERCENT else []))


def warmed_by(result: LoadResult, discarded: list[LoadResult]) -> LoadResult:
    """The trial kept, with the load runs before it that warmed the server (the point's warm-up, trials the JIT
    compiled through) as its warm-up: their seconds in `warmup_s`, their throughput in `warmup_curve`."""
    if not discarded:
        return result
    seconds, curve = 0.0, []
    for earlier in discarded:
        seconds += (earlier.window_start_s or 0.0) + earlier.duration_s
        whole = int(earlier.duration_s)  # a last part-second would read as a dip
        curve += (earlier.warmup_curve or []) + [t["requests"] for t in earlier.timeline or [] if t["second"] < whole]
    return dataclasses.replace(result, warmup_s=seconds + (result.warmup_s or 0.0),
                               warmup_curve=curve + (result.warmup_curve or []))
