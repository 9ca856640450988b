"""hash: GET ?n=N -> hex of SHA-256 iterated N times over HASH_FILE, read from disk per request."""

import hashlib

from .base import Context, Target, VerifyError, expect, shown
from .headers import TEXT_UTF8
from .spec import Axis, Workload, positive_ints

BAD_QUERIES = ("?n=0", "?n=abc", "", "?n=100001", "?n=-5")


def iterated_sha256(data: bytes, n: int) -> str:
    """Hex of d_n: d_1 = sha256(data), d_(k+1) = sha256(d_k as 32 raw bytes)."""
    digest = hashlib.sha256(data).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()


def _hex(ctx: Context, visitor, n: int, note: str = "") -> None:
    request = f"GET {ctx.path}?n={n}{note}"
    response = visitor.get(f"{ctx.path}?n={n}")
    expect(request, response, content_type=TEXT_UTF8)
    wanted = iterated_sha256(ctx.assets.hash_file.read_bytes(), n)
    if response.body.strip() != wanted.encode():
        raise VerifyError(request, f"body {shown(response.body)}, expected {wanted!r}")


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for n in (1, 2, 1000):
        _hex(ctx, visitor, n)
    ctx.assets.rewrite_hash_file()
    _hex(ctx, visitor, 1, " after the harness rewrote HASH_FILE (the file must be read per request)")
    for query in BAD_QUERIES:
        response = visitor.get(ctx.path + query)
        if response.status != 400:
            raise VerifyError(f"GET {ctx.path}{query}", f"status {response.status}, expected 400 "
                              f"(n must be an integer in 1..100000); body {shown(response.body)}")
        if response.body.strip().count(b"\n") > 0:
            raise VerifyError(f"GET {ctx.path}{query}", f"the 400 reason should be one line: {shown(response.body)}")
    ctx.after_a_tick()


def target(ctx: Context, n: int) -> Target:
    wanted = iterated_sha256(ctx.assets.hash_file.read_bytes(), n)
    return Target(f"{ctx.path}?n={n}", expect_body_regex=rf"^{wanted}\s*$")


HASH_N = Axis("hash_n", (1,), lambda key, value: positive_ints(key, value, 100000), lambda n: f"n={n}", "1,1000",
              "n for the hash workload, one point each (default 1)")
# The slowest hash the contract allows (n in 1..100000) takes milliseconds of CPU (about 10 in Go).
WORKLOAD = Workload("hash", 5, verify, target, axis=HASH_N, slow_query="?n=100000")
