"""What queries, updates and cached share: their answer (a JSON array of world rows), the count parameter's
cases, requests made concurrently to count the database's work, and the load target."""

from __future__ import annotations

import json
from typing import Callable

from .base import Context, Target, VerifyError, expect, shown
from .concurrent import CONCURRENCY, at_once
from .probe import Response
from .techempower_db import COUNT_CASES, MAX_ROWS, expected_rows

WORLD_IDS = range(1, 10_001)
KEYS = {"id", "randomNumber"}
COUNTED_ROWS = 20  # rows per request of the counting rules, as TechEmpower's ?queries=20
CASE_TIMEOUT = 30.0  # seconds for one case: 501 asks an updates server for 500 reads and 500 writes

Rows = list[tuple[int, int]]  # (id, randomNumber) in the answer's order


def world(ctx: Context) -> dict[int, int]:
    """The world table now, id -> randomnumber."""
    return dict(ctx.postgres.query("SELECT id, randomnumber FROM world"))


def parse(request: str, body: bytes) -> Rows:
    """The answer's rows; VerifyError unless it is a JSON array of {"id": int, "randomNumber": int} with ids
    in 1..10000, the keys spelled as the contract spells them."""
    try:
        value = json.loads(body)
    except ValueError:
        raise VerifyError(request, f"rule 'body shape': not JSON: {shown(body)}") from None
    if not isinstance(value, list):
        raise VerifyError(request, f"rule 'body shape': expected a JSON array of rows, got {shown(body)}")
    rows = []
    for item in value:
        if not isinstance(item, dict) or set(item) != KEYS:
            raise VerifyError(request, f"rule 'body shape': every row must be an object with exactly the keys "
                                       f"\"id\" and \"randomNumber\", got {shown(json.dumps(item))}")
        ident, number = item["id"], item["randomNumber"]
        if not all(isinstance(v, int) and not isinstance(v, bool) for v in (ident, number)):
            raise VerifyError(request, f"rule 'body shape': id and randomNumber must be integers, got "
                                       f"{shown(json.dumps(item))}")
        if ident not in WORLD_IDS:
            raise VerifyError(request, f"rule 'body shape': id {ident} is not in 1..10000")
        rows.append((ident, number))
    return rows


def get_rows(visitor, path: str, note: str = "") -> tuple[Response, Rows]:
    request = f"GET {path}{note}"
    response = visitor.get(path)
    expect(request, response, content_type="application/json")
    return response, parse(request, response.body)


def check_cases(ctx: Context, param: str, rows_ok: Callable[[str, Rows], None]) -> None:
    """TechEmpower's count cases (2, 0, foo, empty, 501, and the parameter left out), each answered with the
    contract's number of rows, which `rows_ok(request, rows)` then checks."""
    visitor = ctx.visitor(timeout=CASE_TIMEOUT)
    for value, wanted in COUNT_CASES:
        path = ctx.path if value is None else f"{ctx.path}?{param}={value}"
        _, rows = get_rows(visitor, path)
        if len(rows) != wanted:
            why = "the parameter left out means 1" if value is None else (
                f"{value!r} means {wanted}: not an integer or below 1 means 1, above {MAX_ROWS} means {MAX_ROWS}")
            raise VerifyError(f"GET {path}", f"rule 'count parameter': {len(rows)} rows, expected {wanted} ({why})")
        rows_ok(f"GET {path}", rows)


def check_read_cases(ctx: Context, param: str) -> dict[int, int]:
    """The count cases of a workload that only reads (queries, cached), every answer's rows checked against
    `world` and for random ids; returns the table as read."""
    ctx.postgres.reset()
    table = world(ctx)

    def rows_ok(request: str, found: Rows) -> None:
        match_database(request, found, table)
        varied(request, found)

    check_cases(ctx, param, rows_ok)
    return table


def varied(request: str, rows: Rows) -> None:
    """Ids drawn uniformly from 10,000: 500 of them repeat about 12; more than 50 repeats is not random."""
    if len(rows) == MAX_ROWS and len({ident for ident, _ in rows}) < MAX_ROWS * 0.9:
        raise VerifyError(request, f"rule 'random ids': {len({i for i, _ in rows})} distinct ids among "
                                   f"{MAX_ROWS}: the ids are not drawn at random from 1..10000")


def match_database(request: str, rows: Rows, table: dict[int, int]) -> None:
    for ident, number in rows:
        if table[ident] != number:
            raise VerifyError(request, f"rule 'rows match the database': row {ident} has randomNumber "
                                       f"{table[ident]} in the database, the answer says {number}")


def concurrently(ctx: Context, path: str, requests: int = CONCURRENCY) -> list[Rows]:
    """`requests` GETs of `path` at once, each on a connection of its own; the rows of each answer, whose
    number must be what `path` asks for."""
    note = f" (one of {requests} at once)"
    answers = at_once(ctx, path, requests, lambda visitor, at: get_rows(visitor, at, note)[1])
    wanted = expected_rows(path.rpartition("=")[2])
    for rows in answers:
        if len(rows) != wanted:
            raise VerifyError(f"GET {path}{note}", f"rule 'count parameter': {len(rows)} rows, expected {wanted}")
    return answers


# ASCII classes: the load driver's regex is Unicode-aware, and \s, \d repeated 500 times would be large.
_NUMBER, _SPACE = "[0-9]+", "[ \t\r\n]*"
_ROW = (rf'\{{{_SPACE}"(?:id|randomNumber)"{_SPACE}:{_SPACE}{_NUMBER}{_SPACE},'
        rf'{_SPACE}"(?:id|randomNumber)"{_SPACE}:{_SPACE}{_NUMBER}{_SPACE}\}}')


def target(ctx: Context, param: str, n: int) -> Target:
    """The load point's request, `?param=n`, and the answer it must get: an array of that many rows."""
    rows = expected_rows(str(n))
    more = "" if rows == 1 else rf"(?:{_SPACE},{_SPACE}{_ROW}){{{rows - 1}}}"
    return Target(f"{ctx.path}?{param}={n}", expect_body_regex=rf"^{_SPACE}\[{_SPACE}{_ROW}{more}{_SPACE}\]{_SPACE}$")
