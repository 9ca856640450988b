"""Keep-alive, measured: how many TCP connections one client needed for a few requests in a row.

A server that closes after every answer (with `Connection: close`, or by dropping the socket) makes a client
pay a TCP handshake per request; the verification client reconnects to get on with its checks, and this
probe counts those reconnections instead of hiding them.
"""

from __future__ import annotations

import http.client
import ssl
from dataclasses import dataclass
from pathlib import Path

from ..system import httpget

# A server may drop a connection right after its answer without saying so; the next request on it fails
# with one of these before any byte of an answer arrives, and is sent again on a new connection.
_DROPPED = (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError)


@dataclass(frozen=True)
class KeepAlive:
    requests: int
    connections: int  # TCP connections opened for them

    @property
    def kept_alive(self) -> bool:
        return self.connections == 1

    @property
    def requests_per_connection(self) -> float:
        return self.requests / self.connections


class _CountingConnection(http.client.HTTPConnection):
    def __init__(self, host: str, port: int, timeout: float, tls: ssl.SSLContext | None):
        super().__init__(host, port, timeout=timeout)
        self.opened, self.tls = 0, tls

    def connect(self) -> None:
        super().connect()
        if self.tls is not None:  # as HTTPSConnection does, with the count kept
            self.sock = self.tls.wrap_socket(self.sock, server_hostname=self.host)
        self.opened += 1


def _exchange(conn: _CountingConnection, path: str) -> None:
    conn.request("GET", path)
    # http.client closes the socket itself after an answer that says `Connection: close` (or is HTTP/1.0
    # without keep-alive), so the next request opens, and counts, a new connection.
    conn.getresponse().read()


def probe(host: str, port: int, path: str, requests: int = 5, timeout: float = 10.0,
          ca: Path | None = None) -> KeepAlive:
    """Sends `requests` GETs of `path` one after another from one HTTP/1.1 client (over TLS verified against
    `ca` when given), which reuses its connection whenever the server lets it; raises OSError or
    http.client.HTTPException when the server does not answer."""
    if requests < 1:
        raise ValueError(f"requests: expected at least 1, got {requests}")
    conn = _CountingConnection(host, port, timeout, httpget.tls_context(ca) if ca else None)
    try:
        for _ in range(requests):
            try:
                _exchange(conn, path)
            except _DROPPED:
                if conn.opened == 0:
                    raise
                conn.close()
                _exchange(conn, path)
    finally:
        conn.close()
    return KeepAlive(requests, conn.opened)
