"""cached: GET ?count=N -> N random world rows from an in-process cache filled from the database, no query per
request."""

from . import rows, techempower
from .base import Context, Target, VerifyError
from .concurrent import CONCURRENCY
from .techempower_db import MAX_ROWS
from .spec import Axis, Workload, positive_ints

# SELECTs on world allowed while CONCURRENCY requests are answered from a filled cache: a process that fills
# its cache on first use and missed the warm-up may still read the table once.
CACHE_FILLS = CONCURRENCY // 4


def from_cache(request: str, selects: int) -> None:
    """The rule 'no query per request', given the SELECT executions on world the requests caused."""
    if selects >= CACHE_FILLS:
        raise VerifyError(request, f"rule 'no query per request': pg_stat_statements counted {selects} SELECT "
                                   f"executions on world (fewer than {CACHE_FILLS} allowed): the rows are read "
                                   "from the database, not from an in-process cache")


def verify(ctx: Context) -> None:
    table = rows.check_read_cases(ctx, COUNT.key)
    path = f"{ctx.path}?count={rows.COUNTED_ROWS}"
    rows.concurrently(ctx, path)  # every process has now had requests: a cache filled on first use is full
    ctx.postgres.reset()
    for found in rows.concurrently(ctx, path):
        rows.match_database(f"GET {path}", found, table)
    from_cache(f"{CONCURRENCY} concurrent GET {path}, after as many to fill the cache",
               ctx.postgres.statements_on("world").selects)
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.header_problems(first.headers, later.headers, techempower.JSON)))


def target(ctx: Context, count: int) -> Target:
    return rows.target(ctx, COUNT.key, count)


COUNT = Axis("count", (100,), lambda key, value: positive_ints(key, value, MAX_ROWS), lambda n: f"count={n}",
             "1,10,20,50,100", "?count= of the cached workload, one point each (default 100)", per_request="cached rows per request", unit="rows")
WORKLOAD = Workload("cached", 11, verify, target, axis=COUNT, needs_database=True,
                    techempower=(4, "cached queries"), heaviest_shown=True, states=("orm",))
