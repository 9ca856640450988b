"""queries: GET ?queries=N -> a JSON array of N world rows, each read by a query of its own for this request."""

from . import rows, techempower
from .base import Context, Target
from .concurrent import CONCURRENCY
from .techempower_db import MAX_ROWS, count_problems, enforce_rule
from .spec import Axis, Workload, positive_ints



def verify(ctx: Context) -> None:
    table = rows.check_read_cases(ctx, QUERIES.key)
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
        f"GET {ctx.path}", techempower.header_problems(first.headers, later.headers, techempower.JSON)))


def target(ctx: Context, queries: int) -> Target:
    return rows.target(ctx, QUERIES.key, queries)


# TechEmpower's headline level is 20 queries; ?queries= is clamped to 1..MAX_ROWS, so more would measure 500.
QUERIES = Axis("queries", (20,), lambda key, value: positive_ints(key, value, MAX_ROWS), lambda n: f"queries={n}",
               "1,5,10,15,20", "?queries= of the queries and updates workloads, one point each (default 20)",
               per_request="queries per request", unit="queries")
WORKLOAD = Workload("queries", 8, verify, target, axis=QUERIES, needs_database=True,
                    techempower=(3, "multiple queries"), heaviest_shown=True, states=("orm",),
                    slow_query=f"?queries={MAX_ROWS}")  # MAX_ROWS round trips to PostgreSQL
