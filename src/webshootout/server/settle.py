"""Waiting, after a load, until the server has worked off what the load left queued."""

from __future__ import annotations

import time
from typing import Callable

from ..console import say
from ..system import httpget
from ..system import ready as readiness
from .base import Server

# One GET of the ready path waits this long behind the queue before the harness looks at the server again.
SETTLE_TIMEOUT = 60.0
# A server that used at least this share of a CPU over that wait is working off a queue, not hung: it gets
# another wait, up to SETTLE_MAX in all. A single-threaded server that read 16,384 x 16 pipelined requests
# answers them for over a minute after the load has gone (express at 3,700 req/s: 68 s).
SETTLE_BUSY = 0.5
SETTLE_MAX = 600.0


def settle(srv: Server, clock: Callable[[], float] = time.monotonic) -> str | None:
    """Waits for requests a load left queued, so the next check or trial starts on an idle server.

    Returns why the server was not ready again (its ready path did not answer 200), or None."""
    began = clock()
    while True:
        cpu_before, asked = srv.running.group.cpu_seconds(), clock()
        try:
            why = readiness.problem(srv.origin, srv.variant.start.ready, SETTLE_TIMEOUT, ca=srv.ca)
        except httpget.GetError as exc:
            waited = clock() - asked
            busy = (srv.running.group.cpu_seconds() - cpu_before) / max(waited, 1e-9)
            if waited >= SETTLE_TIMEOUT / 2 and busy >= SETTLE_BUSY and clock() - began < SETTLE_MAX:  # not a refusal
                say(f"{srv.variant.id}: still working off the load's queue {clock() - began:.0f} s after it "
                    f"({busy:.0%} of a CPU); waiting up to {SETTLE_MAX:.0f} s")
                continue
            return f"after the load: {exc} (the server used {busy:.0%} of a CPU meanwhile)"
        return None if why is None else f"after the load: {why}"
