"""What a server's [transport] claims beyond the workloads: its TLS handshake and ALPN choice, and HTTP/2
streams that really run at once."""

from __future__ import annotations

import socket
import ssl
from pathlib import Path
from typing import Protocol

from ..system import httpget
from . import probe_h2, registry
from .probe import BODY_LIMIT, Link



def slow_requests() -> list[tuple[str, str]]:
    """(workload, query) of each workload's slowest request, best first: one that waits on PostgreSQL is time a
    server spends waiting, and one that serves a connection's streams at once answers the quick request meanwhile
    whatever its threading model or CPU count; one that computes (milliseconds of CPU against the quick one's
    microseconds) is run to its end first by an event loop on one CPU (Node, asyncio, a one-thread tokio)."""
    slow = [w for w in registry.REGISTRY.values() if w.slow_query]
    return [(w.name, w.slow_query) for w in sorted(slow, key=lambda w: not w.needs_database)]


# Slow requests sent before the plaintext, in the same write: on one CPU even a server that runs streams at
# once may run the first to its end (Go preempts every 10 ms) but not all of them before the plaintext; one
# that runs a connection's streams in turn answers the plaintext last.
SLOW_REQUESTS = 3
# A server that runs streams at once answers the plaintext before the last slow request nearly always; one
# that runs them in turn never does, so one success in a few tries proves it and a scheduling hiccup cannot
# fail it.
STREAM_TRIES = 5


class Claims(Protocol):
    """What a manifest's [transport] claims (stacks/catalog.py's Transport is one)."""

    h2: bool


# What the check offers by ALPN: http/1.1 alone, then h2 first as HTTP/2 clients do.
OFFERS = (("http/1.1",), ("h2", "http/1.1"))


def selected_alpn(host: str, port: int, ca: Path, offers: tuple[tuple[str, ...], ...] = OFFERS,
                  timeout: float = 10.0) -> dict[tuple[str, ...], str | None]:
    """The ALPN protocol the server selects for each of `offers`. Every handshake must verify against `ca`:
    ssl.SSLError (ssl.SSLCertVerificationError for a certificate the CA did not sign for `host`) or OSError
    otherwise."""
    chosen = {}
    for offer in offers:
        with socket.create_connection((host, port), timeout=timeout) as raw, \
                httpget.tls_context(ca, offer).wrap_socket(raw, server_hostname=host) as tls:
            chosen[offer] = tls.selected_alpn_protocol()
    return chosen


def handshake_failure(exc: Exception) -> str:
    if isinstance(exc, ssl.SSLCertVerificationError):
        return f"TLS handshake: the server's certificate does not verify against the run's CA: {exc}"
    return f"TLS handshake failed: {type(exc).__name__}: {exc}"


def alpn_problem(chosen: dict[tuple[str, ...], str | None], claimed: Claims) -> str | None:
    """Why the protocols the server selected for the offers in `chosen` disagree with the manifest's [transport],
    or None: "http/1.1" when offered alone, and "h2" when h2 is offered first exactly when the manifest claims h2.

    Selecting no protocol counts as "http/1.1": TLS without ALPN carries HTTP/1.1 (RFC 7301 leaves the client
    to its default), and production servers do it (uvicorn sets no ALPN; Tomcat with h2 selects nothing for an
    offer without h2), so that is what a client measures there too."""
    for offer in chosen:
        expected = "h2" if claimed.h2 and "h2" in offer else "http/1.1"
        if chosen[offer] is None and expected == "http/1.1":
            continue
        if chosen[offer] != expected:
            said = "h2 = true" if claimed.h2 else "no h2"
            return (f"TLS ALPN: offered {', '.join(offer)}, the server selected {chosen[offer]!r}, expected "
                    f"{expected!r} (the manifest's [transport] says {said})")
    return None


def streams_problem(host: str, port: int, link: Link, slow: str, quick: str) -> str | None:
    """Why HTTP/2 streams of one connection are not served at once, or None: SLOW_REQUESTS GETs of `slow`, then
    one of `quick` right behind them in the same write on the same connection; the quick answer must end
    before the last slow one."""
    for _ in range(STREAM_TRIES):
        client = probe_h2.Client(host, port, 60.0, link.ca)
        try:
            *_, fast = streams = client.send([slow] * SLOW_REQUESTS + [quick], {})
            answers = client.wait(streams, BODY_LIMIT)
        finally:
            client.close()
        for _, (status, _, body) in answers:
            if status != 200:
                return f"HTTP/2 streams: a request on the shared connection answered {status}: {body[:120]!r}"
        if answers[-1][0] != fast:
            return None
    return (f"HTTP/2 streams are not concurrent over {link.name}: {SLOW_REQUESTS} x GET {slow} then GET {quick} "
            f"on one connection, {STREAM_TRIES} times, and the {quick} answer always ended last (the server serves "
            f"a connection's streams one after another)")
