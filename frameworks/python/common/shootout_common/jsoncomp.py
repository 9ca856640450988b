"""json-comp: the array of N objects that each stack serializes and compresses per request (docs/workloads.md)."""

import re

MAX_ITEMS = 1000
_INTEGER = re.compile(r"[0-9]+")


def count(raw: str | None) -> int:
    """The query's n, held to 1..MAX_ITEMS (the check and the load ask for no other, so no 400 is needed)."""
    if raw is None or not _INTEGER.fullmatch(raw):
        return 1
    return max(1, min(MAX_ITEMS, int(raw)))


def items(n: int) -> list[dict]:
    """Built anew for every request: the framework's JSON path serializes it each time."""
    return [{"id": i, "message": "Hello, World!"} for i in range(1, n + 1)]
