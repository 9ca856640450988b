"""A manifest's [transport] table: what a server serves besides cleartext HTTP/1.1, and how the harness knows it
is ready when it serves no HTTP/1.1 at all."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

from ..system.ready import H2 as READY_H2
from ..workloads import registry

_TRANSPORT_FLAGS = ("tls", "h2", "h2c", "h1")
PROXIES = ("nginx",)
NO_PROXY = "none"  # a variant's way to serve TLS itself when its base sits behind a proxy


@dataclass(frozen=True)
class Transport:
    """What a server serves besides cleartext HTTP/1.1 (the manifest's [transport] table; transport contract in
    docs/adding-a-framework.md): TLS on PORT when given TLS_CERT and TLS_KEY, h2 by ALPN over it, h2c; a gRPC
    server serves no HTTP/1.1 at all (h1 = false)."""

    tls: bool = False
    h2: bool = False
    h2c: bool = False
    note: str | None = None  # how the server does it
    # "nginx": TLS (and h2 over it) is terminated by nginx in front of the app, as its production guidance
    # deploys it (server/tls-proxy.sh); None: the server itself serves what it claims
    proxy: str | None = None
    h1: bool = True

    @property
    def serves(self) -> tuple[str, ...]:
        """Its transports, by the names points and reports use: "h1", "h1+tls", "h2+tls", "h2c"."""
        claimed = (("h1", self.h1), ("h1+tls", self.tls and self.h1), ("h2+tls", self.h2), ("h2c", self.h2c))
        return tuple(name for name, on in claimed if on)


def parse(check, data: dict) -> Transport:
    """The manifest's [transport] table (`check` is the catalog's checker of that manifest)."""
    if "transport" not in data:
        return Transport()
    table = check.table(data, "transport")
    check.keys(table, {*_TRANSPORT_FLAGS, "note", "proxy"}, "transport.")
    for field in _TRANSPORT_FLAGS:
        if not isinstance(table.get(field, False), bool):
            raise check.fail(f"transport.{field}", "true or false", table[field])
    proxy = check.string(table, "proxy", required=False, prefix="transport.")
    if proxy is not None and proxy not in (*PROXIES, NO_PROXY):
        raise check.fail("transport.proxy", f"one of {[*PROXIES, NO_PROXY]}", proxy)
    transport = Transport(**{f: table.get(f, f == "h1") for f in _TRANSPORT_FLAGS},
                          note=check.string(table, "note", prefix="transport."),
                          proxy=None if proxy == NO_PROXY else proxy)
    if transport.h2 and not transport.tls:
        raise check.fail("transport.h2", "false unless tls = true (h2 is offered by ALPN over TLS; "
                                         "cleartext HTTP/2 is h2c)", True)
    if not transport.h1 and not (transport.h2c and transport.h2 == transport.tls):
        raise check.fail("transport.h1", "true unless the server takes h2c and, with tls = true, h2 (without "
                                         "HTTP/1.1 it serves only HTTP/2)", False)
    if transport.proxy is not None and transport.h2c:
        raise check.fail("transport.proxy", "no proxy with h2c = true (the proxy terminates TLS; cleartext goes "
                                            "to the app itself)", transport.proxy)
    # A variant that turns TLS off has nothing for its base's proxy to terminate.
    return transport if transport.tls else dataclasses.replace(transport, proxy=None)


def fits(check, transport: Transport, ready: str, workloads: dict) -> None:
    """A workload of HTTP/2 only needs h2c; a server without HTTP/1.1 serves only such workloads and says when it is
    ready by the HTTP/2 preface."""
    for workload in workloads:
        http2_only = registry.get(workload).http2_only
        if http2_only and not transport.h2c:
            raise check.fail(f"workloads.{workload}", "a workload of HTTP/2 only: the server must take h2c "
                                                     "([transport] h2c = true)")
        if not transport.h1 and not http2_only:
            raise check.fail(f"workloads.{workload}", "a workload over HTTP/2 only ([transport] h1 = false: the "
                                                     "server serves no HTTP/1.1)")
    if ready == READY_H2 and not transport.h2c:
        raise check.fail("start.ready", f"a path unless [transport] h2c = true ({READY_H2!r} waits for the HTTP/2 "
                                        "preface)", ready)
    if not transport.h1 and ready != READY_H2:
        raise check.fail("start.ready", f"{READY_H2!r}: without HTTP/1.1 the harness cannot GET a path", ready)
