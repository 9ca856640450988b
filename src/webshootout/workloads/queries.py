"""queries: GET ?queries=N -> a JSON array of N world rows, each read by a query of its own for this request."""

from . import rows, techempower
from .base import Context, Target
from .concurrent import CONCURRENCY
from .techempower_db import count_problems, enforce_rule

LOAD_QUERIES = 1


def verify(ctx: Context) -> None:
    table = rows.check_read_cases(ctx, "queries")
    ctx.postgres.reset()
    path = f"{ctx.path}?queries={rows.COUNTED_ROWS}"
    for found in rows.concurrently(ctx, path):
        rows.match_database(f"GET {path}", found, table)
    counted = ctx.postgres.statements_on("world")
    wanted = CONCURRENCY * rows.COUNTED_ROWS
    enforce_rule("query count", f"{CONCURRENCY} concurrent GET {path}",
                 count_problems("executed SELECT queries on world", counted.selects, wanted)
                 + count_problems("rows read from world", counted.rows_read, wanted))
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.header_problems(first.headers, later.headers, "json")))


def target(ctx: Context, queries: int = LOAD_QUERIES) -> Target:
    return rows.target(ctx, "queries", queries)
