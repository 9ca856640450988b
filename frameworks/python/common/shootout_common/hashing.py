"""The hash workload: SHA-256 of HASH_FILE, read on every request, then iterated n - 1 times."""

import hashlib
import re

MAX_N = 100_000
_INTEGER = re.compile(r"-?[0-9]+")


def parse_n(raw: str | None) -> int:
    """The query's n; a ValueError's message is the one-line reason the 400 answer carries."""
    if raw is None:
        raise ValueError("missing query parameter n")
    if not _INTEGER.fullmatch(raw):
        raise ValueError("n must be an integer")
    n = int(raw)
    if not 1 <= n <= MAX_N:
        raise ValueError(f"n must be between 1 and {MAX_N}")
    return n


def iterated_sha256(path: str, n: int) -> str:
    with open(path, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()
