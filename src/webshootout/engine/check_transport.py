"""The part of `shootout check` for a stack's [transport] claims: h2c on its cleartext server, and a second
server started with the run's certificate for TLS (HTTP/1.1 and, when claimed, h2 by ALPN).

Over each claimed transport every workload must answer as over cleartext HTTP/1.1 (the same checks, through
a client that speaks it); WebSocket (and the workloads shootout-load sends over HTTP/1.1 only) are checked over TLS and not over HTTP/2.
HTTP/2 streams must run at once (workloads/transport.py)."""

from __future__ import annotations

import dataclasses
import http.client
import ssl
from dataclasses import dataclass
from typing import Iterator

from .. import harness, server
from ..services import certs
from ..workloads import probe, registry, transport, verify_each



@dataclass(frozen=True)
class Outcome:
    what: str  # e.g. "json over h2+tls"
    reason: str | None = None  # why it failed; None: it passed (or could not be checked)
    unchecked: str | None = None  # why it could not be checked here


def over(served: harness.Served, links: tuple[probe.Link, ...], workloads: list[str]) -> Iterator[Outcome]:
    """Every workload through each of `links` (one wait for the Date tick serves them all), then (HTTP/2) that the
    connection's streams run at once."""
    checks = [(w, dataclasses.replace(served.context(w), link=link)) for link in links for w in workloads
              if not (link.http2 and registry.get(w).http1_only)]
    for (workload, ctx), reason in zip(checks, verify_each(checks)):
        yield Outcome(f"{workload} over {ctx.link.name}", reason)
    for link in links:
        if link.http2:
            yield _streams(served, link)


def _streams(served: harness.Served, link: probe.Link) -> Outcome:
    what, variant, quick = f"HTTP/2 streams over {link.name}", served.variant, registry.QUICK
    slow = next((variant.path_of(w) + query for w, query in transport.slow_requests() if variant.path_of(w)), None)
    if slow is None or variant.path_of(quick) is None:
        slow_ones = " or ".join(w for w, _ in transport.slow_requests())
        return Outcome(what, unchecked=f"it takes the stack's {quick} and one of {slow_ones} (a slow request)")
    at = served.context(quick)
    try:
        return Outcome(what, transport.streams_problem(at.host, at.port, link, slow, variant.path_of(quick)))
    except (OSError, http.client.HTTPException) as exc:
        return Outcome(what, f"the requests failed: {type(exc).__name__}: {exc}")


def cleartext(served: harness.Served, workloads: list[str]) -> Iterator[Outcome]:
    """What the cleartext server claims besides HTTP/1.1: h2c with prior knowledge (the workloads of HTTP/2 only
    were checked over h2c already, by the cleartext check itself)."""
    if served.variant.transport.h2c:
        yield from over(served, (probe.Link(http2=True),), [w for w in workloads if not registry.get(w).http2_only])


def tls(served: harness.Served, workloads: list[str]) -> Iterator[Outcome]:
    """A server started with TLS_CERT/TLS_KEY: the handshake and ALPN, then HTTP/1.1 (unless it serves HTTP/2 only)
    and (if claimed) h2."""
    at, claimed = served.context(registry.QUICK), served.variant.transport  # its address and CA
    offers = transport.OFFERS if claimed.h1 else transport.OFFERS[-1:]
    try:
        chosen = transport.selected_alpn(at.host, at.port, at.link.ca, offers)
    except (ssl.SSLError, OSError) as exc:
        yield Outcome("TLS handshake", transport.handshake_failure(exc))
        return
    yield Outcome("TLS handshake and ALPN", transport.alpn_problem(chosen, claimed))
    links = (at.link,) if claimed.h1 else ()
    if claimed.h2 and chosen[transport.OFFERS[-1]] == "h2":  # else the line above said why not
        links += (dataclasses.replace(at.link, http2=True),)
    yield from over(served, links, workloads)


def with_certs(env: server.Environment) -> server.Environment:
    """`env` with a fresh certificate for its servers, made in their scratch directory (removed with it;
    services/certs.py)."""
    return dataclasses.replace(env, tls=certs.make(env.scratch / ".tls", [env.host]))
