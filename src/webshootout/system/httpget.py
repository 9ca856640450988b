"""Bounded HTTP for the harness's own requests: straight to the address (never through a proxy from the
environment), a body limit, and one deadline for the whole exchange."""

from __future__ import annotations

import contextlib
import http.client
import socket
import ssl
import threading
from pathlib import Path
from typing import Iterator
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


@contextlib.contextmanager
def deadline(connection: http.client.HTTPConnection, timeout: float) -> Iterator[None]:
    """Ends the exchange inside the block after `timeout` seconds in all, raising GetError.

    A server that trickles its head or body one byte at a time never trips a per-read timeout: a watchdog
    shuts the socket at the deadline.
    """
    if connection.sock is None:
        connection.connect()
    fired = threading.Event()
    watchdog = threading.Timer(timeout, _cut, (connection.sock, fired))
    watchdog.start()
    try:
        yield
    except (OSError, http.client.HTTPException):
        if fired.is_set():
            raise GetError(f"not complete after {timeout:g} s") from None
        raise
    finally:
        watchdog.cancel()
    if fired.is_set():  # what was read may have been cut anywhere
        raise GetError(f"not complete after {timeout:g} s")


def tls_context(ca: Path | None, alpn: tuple[str, ...] = ("http/1.1",)) -> ssl.SSLContext:
    """A client context that trusts the PEM CA `ca` (the run's throwaway one) alone, checks the server's name or
    IP address against its certificate, and offers the protocols `alpn`."""
    context = ssl.create_default_context(cafile=ca)
    context.set_alpn_protocols(list(alpn))
    return context


def connection_for(url: str, timeout: float, ca: Path | None = None) -> http.client.HTTPConnection:
    """A connection to url's host: HTTP/1.1 over TLS for https, verified against `ca`."""
    parts = urlsplit(url)
    if parts.scheme == "https":
        return http.client.HTTPSConnection(parts.hostname, parts.port or 443, timeout=timeout,
                                           context=tls_context(ca))
    return http.client.HTTPConnection(parts.hostname, parts.port or 80, timeout=timeout)


def get(url: str, timeout: float, limit: int = LIMIT, ca: Path | None = None) -> tuple[int, bytes]:
    """(status, body) of GET url (https: verified against `ca`); raises GetError on a connection or TLS failure,
    a timeout or a body over limit."""
    parts = urlsplit(url)
    connection = connection_for(url, timeout, ca)
    try:
        with deadline(connection, timeout):
            connection.request("GET", parts.path + (f"?{parts.query}" if parts.query else ""))
            response = connection.getresponse()
            body = bytearray()
            while chunk := response.read1(65536):
                body += chunk
                if len(body) > limit:
                    raise GetError(f"the body is over {limit} bytes")
        return response.status, bytes(body)
    except GetError as exc:
        raise GetError(f"GET {url}: {exc}") from None
    except socket.timeout:
        raise GetError(f"GET {url}: not complete after {timeout:g} s") from None
    except (OSError, http.client.HTTPException) as exc:
        raise GetError(f"GET {url}: {type(exc).__name__}: {exc}") from None
    finally:
        connection.close()
