"""One probe's exchange over a plain TCP socket: the writes (with their pauses), then the answers read until
they are complete, the server closes, or the deadline passes."""

from __future__ import annotations

import select
import socket
import time
from dataclasses import dataclass, field

from .parse import Parsed, answers
from .target import Target

KEEP = 1 << 16  # received bytes kept for showing; parsing sees them all


@dataclass(frozen=True)
class Write:
    data: bytes
    pause: float = 0.0  # seconds to wait (reading meanwhile) before this write
    until_answer: bool = False  # end the pause early once the server has sent something (100 Continue)


@dataclass(frozen=True)
class Limits:
    """How long a probe waits. `answer` bounds the wait for the answers after the last write (`following`
    for each after the first); `linger` is how long complete answers are watched for a close (or stray
    bytes) after them."""

    answer: float = 1.0
    linger: float = 0.2
    following: float = 0.5  # the wait for each further answer of a pipeline, once one came
    slow_pass: float = 30.0  # slowloris: a trickled head cut within this passes,
    slow_give_up: float = 95.0  # within this warns (Node checks its 60 s every 30 s), else fails
    trickle: float = 1.0  # seconds between its bytes


@dataclass
class Observation:
    sent: bytes = b""
    received: bytes = b""
    parsed: Parsed = field(default_factory=Parsed)
    closed: bool = False  # the server closed (or reset) the connection
    timed_out: bool = False  # neither the expected answers nor a close before the deadline
    seconds: float | None = None  # from the last write to the first answer byte or the close
    early: bool = False  # bytes came before the last write (an early answer, or 100 Continue)
    note: str = ""  # what went wrong on our side of the socket, if anything

    @property
    def first(self):
        return self.parsed.finals[0] if self.parsed.finals else None


class _Conversation:
    def __init__(self, target: Target, limits: Limits):
        self.sock = socket.create_connection((target.host, target.port), timeout=limits.answer)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)  # each write its own segment
        self.seen = Observation()
        self.buffer = bytearray()
        self.last_write = time.monotonic()

    def read(self, wait: float) -> bool:
        """Reads what arrives within `wait` seconds; False once the server has closed."""
        if self.seen.closed:
            return False
        ready, _, _ = select.select([self.sock], [], [], max(wait, 0))
        if not ready:
            return True
        try:
            chunk = self.sock.recv(1 << 16)
        except (ConnectionResetError, ConnectionAbortedError):
            chunk = b""
        if self.seen.seconds is None:
            self.seen.seconds = max(0.0, time.monotonic() - self.last_write)
        if not chunk:
            self.seen.closed = True
            return False
        self.buffer += chunk
        return True

    def pause(self, write: Write) -> None:
        end = time.monotonic() + write.pause
        while (left := end - time.monotonic()) > 0 and self.read(left):
            if write.until_answer and self.buffer:
                return

    def send(self, data: bytes) -> bool:
        if self.buffer:
            self.seen.early = True
        try:
            self.sock.sendall(data)
        except (BrokenPipeError, ConnectionResetError):
            # Its answer may still be in our receive buffer: reading finds it, then the close.
            self.seen.note = "the server closed before all was sent"
            return False
        except socket.timeout:
            self.seen.note = "the server stopped reading what was sent"
            return False
        finally:
            self.seen.sent += data
            self.last_write = time.monotonic()
            self.seen.seconds = None
        return True


def exchange(target: Target, writes: tuple[Write, ...], limits: Limits, heads: tuple[bool, ...] = (False,)
             ) -> Observation:
    """Sends `writes` and reads until len(heads) final answers came (then `linger` for a close), the server
    closes, or `limits.answer` passes; heads[i] says the i-th request is a HEAD."""
    talk = _Conversation(target, limits)
    try:
        for write in writes:
            talk.pause(write)
            if not talk.send(write.data):
                break
        deadline, got = time.monotonic() + limits.answer, 0
        while (now := len(answers(bytes(talk.buffer), heads, False).finals)) < len(heads):
            if now > got:  # the next answer of a pipeline follows the last at once, or not at all
                deadline, got = min(deadline, time.monotonic() + limits.following), now
            if not talk.read(deadline - time.monotonic()):
                break
            if time.monotonic() >= deadline:
                talk.seen.timed_out = True
                break
        else:
            end = time.monotonic() + limits.linger
            while (left := end - time.monotonic()) > 0 and talk.read(left):
                pass
    finally:
        talk.sock.close()
    seen = talk.seen
    seen.parsed = answers(bytes(talk.buffer), heads, seen.closed)
    seen.received = bytes(talk.buffer[:KEEP])
    return seen
