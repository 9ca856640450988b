"""async: GET -> text/plain `Hello, World!` after the handler has waited WAIT_MS without holding a worker (the
framework's own timer or sleep), so that many connections wait at once. Its ceiling is known: connections /
WAIT_MS answers a second."""

import statistics
import time

from .base import Context, Target, VerifyError, expect, expect_body
from .concurrent import CONCURRENCY, at_once
from .headers import TEXT_UTF8
from .spec import Workload

BODY = "Hello, World!"
WAIT_MS = 15
# A request that came back sooner did not wait (the clock's and the loopback's slack allowed).
SOONEST_MS = WAIT_MS - 1
# CONCURRENCY requests at once: a server that waits for each in turn answers the median one after about half
# of them, CONCURRENCY / 2 x WAIT_MS (480 ms); one that waits for all of them at once, after about WAIT_MS
# plus the check's own overhead. A quarter of the serial time sits between the two with room on a busy machine
# and still refuses a handful of workers each blocked by a sleep (8 workers: 60 ms median, passes; 1-2: fail).
MEDIAN_LIMIT_MS = CONCURRENCY * WAIT_MS / 4


def _timed(visitor, path: str) -> tuple[float, object]:
    started = time.monotonic()
    response = visitor.get(path)
    return (time.monotonic() - started) * 1000, response


def verify(ctx: Context) -> None:
    request = f"GET {ctx.path}"
    took, response = _timed(ctx.visitor(), ctx.path)
    expect(request, response, content_type=TEXT_UTF8)
    expect_body(request, response, BODY.encode())
    # Timed on the second round: the first opens the connections (a TLS handshake each) and warms a JIT, which
    # on a busy machine alone can take a plaintext's median past the limit.
    answers = at_once(ctx, ctx.path, CONCURRENCY, _timed, rounds=2)
    for ms, answer in answers:
        expect(f"{CONCURRENCY} concurrent {request}", answer, content_type=TEXT_UTF8)
        expect_body(f"{CONCURRENCY} concurrent {request}", answer, BODY.encode())
    fastest = min([took] + [ms for ms, _ in answers])
    if fastest < SOONEST_MS:
        raise VerifyError(request, f"answered in {fastest:.1f} ms: the handler must wait {WAIT_MS} ms before it "
                                   "answers")
    median = statistics.median(ms for ms, _ in answers)
    if median > MEDIAN_LIMIT_MS:
        raise VerifyError(f"{CONCURRENCY} concurrent {request}",
                          f"median answer after {median:.0f} ms, more than {MEDIAN_LIMIT_MS:.0f} ms: the waits ran "
                          f"one after another (a sleep that blocks its worker), not at once")
    ctx.after_a_tick()


def target(ctx: Context) -> Target:
    return Target(ctx.path, expect_body=BODY)


WORKLOAD = Workload("async", 12, verify, target, ceiling=lambda connections: connections * 1000 / WAIT_MS)
