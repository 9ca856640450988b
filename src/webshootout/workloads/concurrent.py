"""Requests made at once, each on a connection of its own: what the counting rules measure the database under."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from typing import Callable, TypeVar

from .base import Context
from .probe import Visitor

T = TypeVar("T")
# Requests at once of the counting rules. TechEmpower sends 512 (their highest load) once; 64 already exceed
# every pool of ours (DB_POOL_TOTAL is 2 x database CPUs + 1) and keep a check on 2 CPUs short.
CONCURRENCY = 64
# Seconds each request may take: the last of them waits behind all the others on a one-worker server, and a
# request of 20 rows is 20 round trips (40 for updates) through an ORM on a busy CPU.
TIMEOUT = 60.0


def at_once(ctx: Context, path: str, requests: int, read: Callable[[Visitor, str], T], rounds: int = 1) -> list[T]:
    """`requests` GETs of `path` in parallel threads; what `read(visitor, path)` made of each answer. The first
    error raised by any of them is raised here, once all have ended. With more `rounds`, each visitor asks again
    on its connection once all have answered, and the last round's answers are returned: the earlier ones
    opened the connections (TLS handshakes included) and warmed the server."""
    visitors = [ctx.visitor(cookies=False, timeout=TIMEOUT) for _ in range(requests)]
    with ThreadPoolExecutor(max_workers=requests) as pool:
        for _ in range(rounds):
            answers = list(pool.map(lambda visitor: read(visitor, path), visitors))
    return answers
