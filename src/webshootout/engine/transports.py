"""A part's servers and points per transport. Given TLS_CERT and TLS_KEY a server serves TLS only, so each
stack's server starts once per TLS mode of the part and measures that mode's points (cleartext: h1 and h2c;
TLS: h1+tls and h2+tls); a point at a transport the stack's [transport] table does not claim is skipped with
the reason recorded, never measured over another transport."""

from __future__ import annotations

import dataclasses
from typing import Iterator

from .. import harness
from ..config import profiles
from ..config.profiles import Point
from ..config.suites import Part
from ..console import say
from ..server import Environment
from ..stacks import catalog
from .check_transport import with_certs
from .steps import Steps
from .lines import Subject
from ..results import records


def lineups(ctx: Steps, part: Part, variants: list[catalog.Variant],
            env: Environment) -> Iterator[tuple[list[catalog.Variant], Environment]]:
    """The stacks to serve and the environment to serve them in, once per TLS mode of the part."""
    for number, tls in enumerate(part.profile.tls_modes):
        # An unavailable stack is recorded as such by the first lineup that meets it, not once per mode.
        lineup = [v for v in variants if (number == 0 or not v.unavailable) and _serves_any(ctx, part, v, tls)]
        yield lineup, _with_tls(ctx, env) if tls else env


def _with_tls(ctx: Steps, env: Environment) -> Environment:
    """`env` with the run's certificate, made at its first TLS lineup (ctx.tls_env keeps it)."""
    if ctx.tls_env is None:
        ctx.tls_env = with_certs(ctx.env)
    return dataclasses.replace(env, tls=ctx.tls_env.tls)


def _serves_any(ctx: Steps, part: Part, variant: catalog.Variant, tls: bool) -> bool:
    """False, having recorded the skip, for a stack that serves none of the transports of the part's points at
    this TLS mode: its server would start for nothing."""
    if variant.unavailable:
        return True  # the lineup records why
    points = [p for w in harness.workloads_of(variant, part.workloads) for p in profiles.points(part.profile, w)
              if p.tls == tls]
    if not points or any(harness.unserved(variant, p) is None for p in points):
        return bool(points)
    wanted = ", ".join(dict.fromkeys(p.transport for p in points))
    say(f"{variant.id}: serves none of {wanted}, not started for them")
    ctx.rundir.append(records.Skipped(variant.id, None, f"serves none of {wanted} (its framework.toml's [transport] "
                                                        f"table does not claim them), so its points over them are "
                                                        f"not measured", part.name))
    return False


def points_of(ctx: Steps, subject: Subject, capacity: float | None = None) -> list[Point]:
    """The workload's points at its server's TLS mode; those at a transport the stack does not serve are
    recorded as skipped (once: not again for a rate sweep's points, which `capacity` gives)."""
    found = []
    for point in profiles.points(subject.part.profile, subject.workload, capacity):
        if point.tls != subject.served.tls:
            continue
        reason = harness.unserved(subject.variant, point)
        if reason is None:
            found.append(point)
        elif capacity is None:
            ctx.rundir.append(records.Skipped(subject.variant.id, subject.workload, reason, subject.part.name,
                                              point.label))
    return found
