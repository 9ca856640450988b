"""json-comp: GET ?n=N -> a JSON array of N objects, compressed as Accept-Encoding asks by the framework's own
compression middleware; the load asks for gzip and the report shows bytes per answer beside req/s."""

import gzip
import json
import zlib

import brotli

from .base import Context, Target, VerifyError, expect, shown
from .probe import Response
from .spec import Axis, Workload, positive_ints

MAX_ITEMS = 1000
# From this many items (about 3.5 KB of JSON) the answer must be compressed: over every middleware's minimum
# size (Spring's 2 KB is the largest default met).
COMPRESSED_FROM = 100


def value(n: int) -> list[dict]:
    return [{"id": i, "message": "Hello, World!"} for i in range(1, n + 1)]


def _decoded(request: str, response: Response, encoding: str) -> bytes:
    try:
        if encoding == "gzip":
            return gzip.decompress(response.body)
        return brotli.decompress(response.body)
    except (OSError, EOFError, zlib.error, brotli.error) as exc:
        raise VerifyError(request, f"Content-Encoding: {encoding} but the body does not decode as {encoding}: "
                                   f"{exc}") from None


def _encoding(response: Response) -> str:
    return response.headers.get("content-encoding", "identity").strip().lower()


def _check(ctx: Context, visitor, n: int, accept: str | None) -> None:
    path = f"{ctx.path}?n={n}"
    request = f"GET {path}" + (f" with Accept-Encoding: {accept}" if accept else " without Accept-Encoding")
    response = visitor.get(path, {"Accept-Encoding": accept} if accept else None)
    expect(request, response, content_type="application/json")
    encoding = _encoding(response)
    allowed = {None: {"identity"}, "gzip": {"gzip", "identity"}, "br": {"br", "identity"}}[accept]
    if accept and n >= COMPRESSED_FROM:
        allowed = {accept} if accept == "gzip" else allowed
    if encoding not in allowed:
        raise VerifyError(request, f"Content-Encoding {encoding!r}, expected {' or '.join(sorted(allowed))}"
                                   + (" (an answer this size must be compressed)" if len(allowed) == 1 else ""))
    body = response.body if encoding == "identity" else _decoded(request, response, encoding)
    if encoding != "identity":
        vary = {token.strip().lower() for token in response.headers.get("vary", "").split(",")}
        if not vary & {"accept-encoding", "*"}:
            raise VerifyError(request, f"a {encoding} answer without Vary: Accept-Encoding (Vary is "
                                       f"{response.headers.get('vary')!r}): caches would serve it to any client")
    try:
        found = json.loads(body)
    except ValueError:
        raise VerifyError(request, f"body is not JSON: {shown(body)}") from None
    if found != value(n):
        raise VerifyError(request, f"JSON {shown(json.dumps(found))}, expected the {n} objects "
                                   f'{{"id": i, "message": "Hello, World!"}} for i = 1..{n}')


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for n, accept in ((COMPRESSED_FROM, "gzip"), (COMPRESSED_FROM, None), (MAX_ITEMS, "gzip"), (1, "gzip"),
                      (7, None), (COMPRESSED_FROM, "br"), (MAX_ITEMS, None)):
        _check(ctx, visitor, n, accept)
    ctx.after_a_tick()


def target(ctx: Context, n: int) -> Target:
    # The array's shape and length, whitespace between tokens allowed as for json, each object's fields in either
    # order; the check proved the ids.
    item = r'\{\s*(?:"id"\s*:\s*\d+\s*,\s*"message"\s*:\s*"Hello, World!"|"message"\s*:\s*"Hello, World!"\s*,\s*"id"\s*:\s*\d+)\s*\}'
    regex = rf"^\s*\[\s*{item}(?:\s*,\s*{item}){{{n - 1}}}\s*\]\s*$"
    return Target(f"{ctx.path}?n={n}", expect_body_regex=regex, headers=("Accept-Encoding: gzip",),
                  expect_encoding="gzip")


ITEMS = Axis("items", (COMPRESSED_FROM,), lambda key, value: positive_ints(key, value, MAX_ITEMS),
             lambda n: f"items={n}", "100,1000", "objects in the json-comp answer, one point each (default 100)",
             per_request="objects per answer", unit="objects")
WORKLOAD = Workload("json-comp", 13, verify, target, axis=ITEMS, http1_only=True, bytes_shown=True)
