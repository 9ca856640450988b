"""fortunes: GET -> TechEmpower's HTML table of every fortune row plus one added per request, sorted by message,
rendered by the framework's template engine with HTML escaping."""

from . import techempower
from .base import Context, Target, expect
from .concurrent import CONCURRENCY, at_once
from .techempower_db import count_problems, enforce_rule, fortune_problems, fortunes_table
from .spec import Workload

HTML_UTF8 = "text/html; charset=utf-8"
REQUESTS = 3


def _checked(expected: str, note: str = ""):
    def read(visitor, path: str) -> None:
        request = f"GET {path}{note}"
        response = visitor.get(path)
        expect(request, response, content_type=HTML_UTF8)
        enforce_rule("fortunes table", request, fortune_problems(response.body, expected))
    return read


def verify(ctx: Context) -> None:
    ctx.postgres.reset()
    stored = ctx.postgres.query("SELECT id, message FROM fortune")
    expected = fortunes_table(stored)
    read = _checked(expected)
    visitor = ctx.visitor()
    for _ in range(REQUESTS):
        read(visitor, ctx.path)
    ctx.postgres.reset()
    at_once(ctx, ctx.path, CONCURRENCY, _checked(expected, f" (one of {CONCURRENCY} at once)"))
    counted = ctx.postgres.statements_on("fortune")
    enforce_rule("query count", f"{CONCURRENCY} concurrent GET {ctx.path}",
                 count_problems("executed SELECT queries on fortune", counted.selects, CONCURRENCY)
                 + count_problems("rows read from fortune", counted.rows_read, CONCURRENCY * len(stored)))
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.header_problems(first.headers, later.headers, techempower.HTML)))


def target(ctx: Context) -> Target:
    """Every answer a whole page with the escaped <script> fortune first, the one added per request, and the
    Japanese one last (sorted by code point). `<` and `>` may be escaped by name or by number (askama writes
    `&#60;`), as the check's normalisation and TechEmpower's parser accept."""
    return Target(ctx.path, expect_body_regex=(
        r"(?is)^\s*<!doctype html>.*<td>\s*11\s*</td>\s*<td>(?:&lt;|&#0*60;|&#x0*3c;)script"
        r"(?:&gt;|&#0*62;|&#x0*3e;)alert\(.*"
        r"<td>\s*0\s*</td>\s*<td>Additional fortune added at request time\.</td>.*"
        r"<td>\s*12\s*</td>\s*<td>フレームワークのベンチマーク</td>\s*</tr>\s*</table>\s*</body>\s*</html>\s*$"))


WORKLOAD = Workload("fortunes", 10, verify, target, needs_database=True, techempower=(5, "fortunes"),
                    states=("orm",))
