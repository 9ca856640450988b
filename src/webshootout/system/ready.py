"""Whether a server answers yet: a GET of its ready path, or, for a server of HTTP/2 only (gRPC), the HTTP/2
connection preface answered by the server's SETTINGS frame (RFC 9113 s3.4)."""

from __future__ import annotations

import contextlib
import socket
import ssl
from pathlib import Path
from urllib.parse import urlsplit

from . import httpget

H2 = "h2"  # the manifest's [start] ready for a server without HTTP/1.1
_PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
_EMPTY_SETTINGS = bytes((0, 0, 0, 4, 0, 0, 0, 0, 0))  # length 0, type SETTINGS, no flags, stream 0
_SETTINGS = 4


def problem(origin: str, ready: str, timeout: float, ca: Path | None = None) -> str | None:
    """Why the server at `origin` (http(s)://host:port) is not ready by its manifest's `ready`, or None when it is;
    raises httpget.GetError when it cannot be reached or does not answer within `timeout`."""
    if ready != H2:
        url = origin + ready
        status, _ = httpget.get(url, timeout, ca=ca)
        return None if status == 200 else f"GET {url} answered {status}"
    return _h2_problem(origin, timeout, ca)


def _h2_problem(origin: str, timeout: float, ca: Path | None) -> str | None:
    parts = urlsplit(origin)
    what = f"the HTTP/2 preface to {parts.hostname}:{parts.port}"
    try:
        with contextlib.ExitStack() as stack:
            sock = stack.enter_context(socket.create_connection((parts.hostname, parts.port), timeout=timeout))
            if ca is not None:
                sock = stack.enter_context(httpget.tls_context(ca, (H2,)).wrap_socket(sock,
                                                                                      server_hostname=parts.hostname))
                if sock.selected_alpn_protocol() != H2:
                    return f"{what}: offered only ALPN h2, the server selected {sock.selected_alpn_protocol()!r}"
            sock.sendall(_PREFACE + _EMPTY_SETTINGS)
            head = _read(sock, 9)
    except socket.timeout:
        raise httpget.GetError(f"{what}: no answer after {timeout:g} s") from None
    except (OSError, ssl.SSLError) as exc:
        raise httpget.GetError(f"{what}: {type(exc).__name__}: {exc}") from None
    if len(head) < 9 or head[3] != _SETTINGS:
        return f"{what}: the server answered {head!r}, not a SETTINGS frame"
    return None


def _read(sock: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = sock.recv(size - len(data))
        if not chunk:
            break
        data += chunk
    return data
