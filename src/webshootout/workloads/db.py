"""db: GET -> the `world` row of an id drawn per request, read by a query made for this request."""

import json

from . import techempower
from .base import Context, Target, VerifyError, expect, shown
from .spec import Workload

REQUESTS = 30


def _row(request: str, body: bytes) -> tuple[int, int]:
    try:
        value = json.loads(body)
    except ValueError:
        raise VerifyError(request, f"body is not JSON: {shown(body)}") from None
    if not isinstance(value, dict) or set(value) != {"id", "randomNumber"}:
        raise VerifyError(request, f"expected an object with keys id and randomNumber, got {shown(body)}")
    ident, number = value["id"], value["randomNumber"]
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in (ident, number)):
        raise VerifyError(request, f"id and randomNumber must be integers, got {shown(body)}")
    return ident, number


def verify(ctx: Context) -> None:
    ctx.postgres.reset()
    truth = dict(ctx.postgres.query("SELECT id, randomnumber FROM world"))
    visitor = ctx.visitor()
    ids = []
    for i in range(REQUESTS):
        request = f"GET {ctx.path} (#{i + 1})"
        response = visitor.get(ctx.path)
        expect(request, response, content_type="application/json")
        ident, number = _row(request, response.body)
        if ident not in truth:
            raise VerifyError(request, f"id {ident} is not in 1..10000")
        if truth[ident] != number:
            raise VerifyError(request, f"row {ident} has randomNumber {truth[ident]} in the database, "
                                       f"the response says {number}")
        ids.append(ident)
    # 30 uniform draws from 10,000 repeat an id with probability ~4 %; more than 3 repeats means not random.
    if len(set(ids)) < REQUESTS - 3:
        raise VerifyError(f"{REQUESTS} x GET {ctx.path}", f"ids do not vary: {sorted(ids)}")
    calls = ctx.postgres.calls_touching("world")
    if calls < REQUESTS:
        raise VerifyError(f"{REQUESTS} x GET {ctx.path}", f"pg_stat_statements counted {calls} queries on "
                          f"world for {REQUESTS} requests: the answer is not read per request")
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.db_problems(first, later)))


def target(ctx: Context) -> Target:
    number = r'"(?:id|randomNumber)"\s*:\s*\d+'
    return Target(ctx.path, expect_body_regex=rf"^\{{\s*{number}\s*,\s*{number}\s*\}}\s*$")


WORKLOAD = Workload("db", 3, verify, target, needs_database=True, techempower=(2, "single query"))
