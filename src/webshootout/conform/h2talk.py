"""One HTTP/2 probe's exchange: the writes (raw frames, with their pauses), then the server's frames read until
the watched stream ends or is reset, the server sends GOAWAY or closes, or the deadline passes. The server's
SETTINGS are acknowledged as a client must; nothing else is answered for it."""

from __future__ import annotations

import select
import socket
import ssl
import time
from dataclasses import dataclass, field

import hpack

from . import h2frames as f
from .parse import Parsed, Response
from .target import Target
from .wire import KEEP, Limits, Observation, Write

STREAM = 1  # the stream a probe's request goes on


@dataclass
class H2Seen(Observation):
    frames: int = 0  # frames the server sent
    goaway: int | None = None  # the error code of its GOAWAY
    resets: dict[int, int] = field(default_factory=dict)  # stream -> RST_STREAM error code
    statuses: dict[int, int] = field(default_factory=dict)  # stream -> :status of its final answer
    ended: set[int] = field(default_factory=set)  # streams whose answer ended (END_STREAM)
    peer: dict[int, int] = field(default_factory=dict)  # the server's SETTINGS
    window: int = f.DEFAULT_WINDOW  # the connection's send window the server granted so far
    cut: float | None = None  # seconds into a flood when the server ended it (GOAWAY or close)
    second: Observation | None = None  # another client's plain GET, sent during a flood
    grew: int | None = None  # bytes the server's memory grew by over a flood
    acks: int = 0  # SETTINGS ACKs the server sent
    flood: int = 0  # bytes of a flood sent

    def done(self, stream: int) -> bool:
        return stream in self.ended or stream in self.resets


class Talk:
    def __init__(self, target: Target, limits: Limits):
        self.sock = f.connect(target, limits.answer)
        self.seen = H2Seen()
        self.buffer = bytearray()
        self.decoder = hpack.Decoder()
        self.block: tuple[int, int, bytearray] | None = None  # (stream, flags, fragments) of a header block
        self.bodies: dict[int, bytearray] = {}
        self.last_write = time.monotonic()
        # The server's SETTINGS are acknowledged only between the probe's writes: an ACK must not land inside a
        # preface or a header block the probe is still sending.
        self.holding, self.acks_due = False, 0
        self.stalled = False  # a write timed out: the server stopped reading (and kept the connection)

    def close(self) -> None:
        self.sock.close()

    def send(self, data: bytes) -> bool:
        try:
            self.sock.sendall(data)
        except socket.timeout:
            self.seen.note = self.seen.note or "the server stopped reading what was sent"
            self.stalled = True
            return False
        except (OSError, ssl.SSLError):
            self.seen.note = self.seen.note or "the server closed before all was sent"
            return False
        finally:
            if len(self.seen.sent) < KEEP:
                self.seen.sent += data[:KEEP]
            self.last_write = time.monotonic()
        return True

    def acknowledge(self) -> None:
        if not self.holding and self.acks_due:
            self.acks_due, due = 0, self.acks_due
            self.send(f.settings(flags=f.ACK) * due)

    def read(self, wait: float) -> bool:
        """Reads what arrives within `wait` seconds; False once the server has closed."""
        if self.seen.closed:
            return False
        pending = isinstance(self.sock, ssl.SSLSocket) and self.sock.pending()
        if not pending and not select.select([self.sock], [], [], max(wait, 0))[0]:
            return True
        try:
            chunk = self.sock.recv(1 << 16)
        except (ConnectionResetError, ConnectionAbortedError, ssl.SSLError):
            chunk = b""
        except (socket.timeout, ssl.SSLWantReadError):
            return True
        if self.seen.seconds is None:
            self.seen.seconds = max(0.0, time.monotonic() - self.last_write)
        if not chunk:
            self.seen.closed = True
            return False
        if len(self.seen.received) < KEEP:
            self.seen.received += chunk[:KEEP]
        self.buffer += chunk
        for frame in f.split(self.buffer):
            self._take(frame)
        return True

    def _take(self, frame: f.Frame) -> None:
        seen = self.seen
        seen.frames += 1
        if frame.type == f.SETTINGS:
            if frame.flags & f.ACK:
                seen.acks += 1
            else:
                seen.peer.update(frame.settings())
                self.acks_due += 1
                self.acknowledge()
        elif frame.type == f.GOAWAY:
            seen.goaway = frame.code()
        elif frame.type == f.RST_STREAM:
            seen.resets[frame.stream] = frame.code()
        elif frame.type == f.WINDOW_UPDATE and frame.stream == 0 and len(frame.payload) == 4:
            seen.window += int.from_bytes(frame.payload, "big") & 0x7FFFFFFF
        elif frame.type == f.DATA:
            self.bodies.setdefault(frame.stream, bytearray()).extend(frame.payload)
            self._ends(frame)
        elif frame.type in (f.HEADERS, f.CONTINUATION):
            self._header(frame)

    def _header(self, frame: f.Frame) -> None:
        if frame.type == f.HEADERS:
            self.block = (frame.stream, frame.flags, bytearray(_fragment(frame)))
        elif self.block is not None:
            self.block[2].extend(frame.payload)
        if self.block is None or not frame.flags & f.END_HEADERS:
            return
        stream, flags, fragments = self.block
        self.block = None
        try:
            fields = self.decoder.decode(bytes(fragments), raw=False)
        except hpack.HPACKError as exc:
            self.seen.note = f"could not decode the server's header block: {exc}"
            return
        status = dict(fields).get(":status", "")
        if status.isdigit() and not status.startswith("1"):
            self.seen.statuses[stream] = int(status)
        self._ends(f.Frame(frame.type, flags, stream, b""))

    def _ends(self, frame: f.Frame) -> None:
        if frame.flags & f.END_STREAM:
            self.seen.ended.add(frame.stream)

    def until(self, done, wait: float) -> bool:
        """Reads until done(seen), a GOAWAY or a close, or `wait` seconds; True when done(seen)."""
        deadline = time.monotonic() + wait
        while not done(self.seen) and self.seen.goaway is None and (left := deadline - time.monotonic()) > 0:
            if not self.read(left):
                break
        return done(self.seen)

    def finish(self, stream: int) -> H2Seen:
        """The observation, its answer on `stream` as a parsed response (the table's status column)."""
        seen = self.seen
        if stream in seen.statuses:
            seen.parsed = Parsed(finals=[Response(seen.statuses[stream], "2", (),
                                                  bytes(self.bodies.get(stream, b"")))])
        return seen


def _fragment(frame: f.Frame) -> bytes:
    """A HEADERS frame's header block fragment, without its padding and priority fields."""
    payload, at = frame.payload, 0
    pad = payload[0] if frame.flags & 0x8 and payload else 0
    at += 1 if frame.flags & 0x8 else 0
    at += 5 if frame.flags & 0x20 else 0
    return payload[at:len(payload) - pad]


def exchange(target: Target, writes: tuple[Write, ...], limits: Limits, stream: int = STREAM) -> H2Seen:
    """Sends `writes` (reading meanwhile), then reads until `stream` ended or was reset (then `linger` for a
    GOAWAY or a close), a GOAWAY or a close came, or `limits.answer` passed."""
    talk = Talk(target, limits)
    talk.holding = True
    try:
        for write in writes:
            end = time.monotonic() + write.pause
            while (left := end - time.monotonic()) > 0 and talk.read(left):
                pass
            if not talk.send(write.data):
                break
        talk.holding = False
        talk.acknowledge()
        talk.seen.seconds = None
        if talk.until(lambda s: s.done(stream), limits.answer):
            talk.until(lambda s: False, limits.linger)
        else:
            talk.seen.timed_out = talk.seen.goaway is None and not talk.seen.closed
    finally:
        talk.close()
    return talk.finish(stream)


def get(target: Target, limits: Limits) -> H2Seen:
    """A plain GET of the plaintext path on a new connection."""
    try:
        return exchange(target, (Write(f.start() + f.headers(STREAM, f.request_fields(target))),), limits)
    except (OSError, ssl.SSLError) as exc:
        return H2Seen(note=f"could not connect: {exc}")
