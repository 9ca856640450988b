"""Slowloris: a head trickled a byte at a time must be cut in bounded time, while another client on another
connection is still served. Measured, not assumed: the second client's answer time is recorded."""

from __future__ import annotations

import select
import socket
import time
from dataclasses import dataclass

from .probe import Probe, Verdict, request
from .target import Target
from .wire import Limits, Observation, Write, exchange


@dataclass
class Trickled(Observation):
    cut: float | None = None  # seconds until the server cut the trickle (None: never, within give_up)
    second: Observation | None = None  # the other client's plain request, sent meanwhile
    limits: Limits = Limits()


def _head(target: Target) -> bytes:
    return request(target)[:-2]  # the head without its blank line: it never ends


def _cut(sock: socket.socket, wait: float) -> bytes | None:
    """What the server sent within `wait` seconds: b"" once it closed, None while it is silent."""
    ready, _, _ = select.select([sock], [], [], wait)
    if not ready:
        return None
    try:
        return sock.recv(1 << 16)
    except (ConnectionResetError, ConnectionAbortedError):
        return b""


def _second(target: Target, limits: Limits) -> Observation:
    try:
        return exchange(target, (Write(request(target)),), limits)
    except OSError as exc:
        return Observation(note=f"could not connect: {exc}")


def observe(target: Target, limits: Limits) -> Trickled:
    seen = Trickled(limits=limits)
    with socket.create_connection((target.host, target.port), timeout=limits.answer) as sock:
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.sendall(_head(target))
        seen.sent = _head(target)
        start = time.monotonic()
        while (elapsed := time.monotonic() - start) < limits.slow_give_up:
            if seen.second is None and elapsed >= 2 * limits.trickle:
                seen.second = _second(target, limits)
            answer = _cut(sock, limits.trickle)
            if answer is not None:
                seen.received, seen.closed = answer, not answer
                seen.cut = time.monotonic() - start
                break
            try:
                sock.sendall(b"a" if seen.sent.endswith(b"a") else b"X-Slow: a")
            except OSError:
                seen.cut, seen.closed = time.monotonic() - start, True
                break
            seen.sent += b"a" if seen.sent.endswith(b"a") else b"X-Slow: a"
    return seen


def grade(seen: Observation) -> Verdict:
    if not isinstance(seen, Trickled):  # the trickle's own connection failed
        return "fail", seen.note or "no connection"
    second = seen.second
    if second is None or second.first is None or not 200 <= second.first.status < 300:
        return "fail", "a second client was not answered while the trickle went on"
    served = f"a second client was answered in {second.seconds * 1000:.0f} ms"
    if seen.cut is None:
        return "fail", f"still reading a head trickled a byte per {seen.limits.trickle:g} s after " \
                       f"{seen.limits.slow_give_up:g} s; {served}"
    said = f"cut after {seen.cut:.1f} s" + (f" with {seen.received[:12]!r}" if seen.received else "")
    if seen.cut <= seen.limits.slow_pass:
        return "pass", f"{said}; {served}"
    return "warn", f"{said}, over {seen.limits.slow_pass:g} s; {served}"


PROBE = Probe(name="slowloris", family="fragmentation", section="RFC 9112 s9.5", level="SHOULD",
              what="a head trickled a byte at a time, never ended; a second client sends a request meanwhile",
              writes=lambda t: (Write(_head(t)),), rule=grade, run=observe, slow=True)
