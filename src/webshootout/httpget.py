"""One bounded GET for readiness and settling: straight to the address (never through a proxy from the
environment), at most `limit` bytes of body, and done within `timeout` seconds in all."""

from __future__ import annotations

import http.client
import socket
import threading
import time
from urllib.parse import urlsplit

LIMIT = 1 << 20


class GetError(OSError):
    """The GET did not complete: the message says what went wrong."""


def _cut(sock: socket.socket, fired: threading.Event) -> None:
    fired.set()
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass


def get(url: str, timeout: float, limit: int = LIMIT) -> tuple[int, bytes]:
    """(status, body) of GET url; raises GetError on a connection failure, a timeout or a body over limit."""
    parts = urlsplit(url)
    started = time.monotonic()
    connection = http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)
    watchdog, fired = None, threading.Event()
    try:
        connection.connect()
        # A server that trickles its head or body one byte at a time never trips a per-read timeout: the
        # watchdog ends the whole exchange at the deadline.
        watchdog = threading.Timer(max(0.0, timeout - (time.monotonic() - started)), _cut, (connection.sock, fired))
        watchdog.start()
        connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
        response = connection.getresponse()
        body = bytearray()
        while chunk := response.read1(65536):
            body += chunk
            if len(body) > limit:
                raise GetError(f"GET {url}: the body is over {limit} bytes")
        if fired.is_set():  # what was read may have been cut anywhere
            raise GetError(f"GET {url}: not complete after {timeout:g} s")
        return response.status, bytes(body)
    except (OSError, http.client.HTTPException) as exc:
        if isinstance(exc, GetError):
            raise
        if fired.is_set() or isinstance(exc, socket.timeout):
            raise GetError(f"GET {url}: not complete after {timeout:g} s") from None
        raise GetError(f"GET {url}: {type(exc).__name__}: {exc}") from None
    finally:
        if watchdog is not None:
            watchdog.cancel()
        connection.close()
