"""updates: GET ?queries=N -> N world rows read one query each, given new random numbers, written (per row or
batched, as the manifest says) and answered."""

from collections import defaultdict

from . import rows, techempower
from .base import Context, Target, VerifyError
from .concurrent import CONCURRENCY
from .techempower_db import MAX_ROWS, changed_problems, count_problems, enforce_rule, update_count_problems
from .queries import QUERIES
from .spec import Workload



def written(request: str, found: rows.Rows, after: dict[int, int]) -> None:
    """Every row answered is in the table with a number it was answered with (a repeated id: any of them)."""
    answered = defaultdict(set)
    for ident, number in found:
        if not 1 <= number <= 10000:
            raise VerifyError(request, f"rule 'body shape': row {ident} was given randomNumber {number}, "
                                       "not one in 1..10000")
        answered[ident].add(number)
    for ident, numbers in answered.items():
        if after[ident] not in numbers:
            raise VerifyError(request, f"rule 'rows written': row {ident} has randomNumber {after[ident]} in "
                                       f"the database after the request, the answer says {sorted(numbers)}")


def verify(ctx: Context) -> None:
    ctx.postgres.reset()
    table = {"now": rows.world(ctx)}

    def rows_ok(request: str, found: rows.Rows) -> None:
        before, after = table["now"], rows.world(ctx)
        written(request, found, after)
        rows.varied(request, found)
        if len(found) == MAX_ROWS:  # their rule, where one row keeping its number cannot tip the share
            enforce_rule("rows changed", request, changed_problems(before, after, (i for i, _ in found)))
        table["now"] = after

    rows.check_cases(ctx, QUERIES.key, rows_ok)
    ctx.postgres.reset()
    path = f"{ctx.path}?queries={rows.COUNTED_ROWS}"
    rows.concurrently(ctx, path)
    counted = ctx.postgres.statements_on("world")
    wanted = CONCURRENCY * rows.COUNTED_ROWS
    request = f"{CONCURRENCY} concurrent GET {path}"
    enforce_rule("query count", request,
                 count_problems("executed SELECT queries on world", counted.selects, wanted)
                 + count_problems("rows read from world", counted.rows_read, wanted))
    enforce_rule("update count", request, update_count_problems(
        ctx.updates_style, CONCURRENCY, rows.COUNTED_ROWS, counted.updates, counted.rows_updated))
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.header_problems(first.headers, later.headers, techempower.JSON)))


def target(ctx: Context, queries: int) -> Target:
    return rows.target(ctx, QUERIES.key, queries)


WORKLOAD = Workload("updates", 9, verify, target, axis=QUERIES, needs_database=True,
                    techempower=(6, "data updates"), heaviest_shown=True,
                    states=("orm", "updates"))
