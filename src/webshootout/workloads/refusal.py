"""How a server answers a request body it should refuse: sent without blocking until it answers, closes, or stops
reading, so that neither side waits on the other (over TLS too, where a server's post-handshake tickets make
the socket readable before any answer)."""

from __future__ import annotations

import select
import socket
import ssl
import time
from typing import Iterable

# Errors of a non-blocking send or receive that mean "not now": the TLS layer wants the other direction first.
_NOT_NOW = (ssl.SSLWantReadError, ssl.SSLWantWriteError, BlockingIOError)
GONE = (ConnectionResetError, BrokenPipeError, ssl.SSLEOFError)


class Hung(Exception):
    """The server neither answered nor closed in time."""


def answer_to(sock: socket.socket, frames: Iterable[bytes], stall: float, timeout: float) -> int | None:
    """Writes `frames` to `sock` (the request's head already sent) until the server answers or closes; then the
    answer's status, or None for a close without one. A server that takes nothing for `stall` seconds has stopped
    reading: its answer may take `timeout` more. Raises Hung when none comes."""
    sock.setblocking(False)
    answer, closed = bytearray(), False
    for frame in frames:
        view = memoryview(frame)
        while view and not (answer or closed):
            readable, writable, _ = select.select([sock], [sock], [], stall)
            if not (readable or writable):
                break  # it stopped reading
            if readable:
                answer, closed = _receive(sock, answer)
            if writable and not (answer or closed):
                try:
                    view = view[sock.send(view):]
                except _NOT_NOW:
                    continue
                except GONE:
                    closed = True
        if view or answer or closed:
            break
    deadline = time.monotonic() + timeout
    while b"\r\n" not in answer and not closed:
        left = deadline - time.monotonic()
        if left <= 0 or not select.select([sock], [], [], left)[0]:
            raise Hung
        answer, closed = _receive(sock, answer)
    if not answer:
        return None
    parts = bytes(answer).split(b"\r\n", 1)[0].split()
    return int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None


def _receive(sock: socket.socket, answer: bytearray) -> tuple[bytearray, bool]:
    """What the socket has now added to `answer`, and whether the server has closed."""
    try:
        data = sock.recv(65536)
    except _NOT_NOW:
        return answer, False
    except GONE:
        return answer, True
    return answer + data, not data
