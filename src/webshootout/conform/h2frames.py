"""HTTP/2 frames by hand (RFC 9113 s4, s6): the probes must send frames a client library refuses to send, so
frames are built as bytes here; only header blocks go through HPACK (the `hpack` package, under `h2`), which
keeps names as given (an uppercase one included)."""

from __future__ import annotations

import socket
import struct
from dataclasses import dataclass

import hpack

from ..system import httpget
from .target import Target

PREFACE = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n"
DATA, HEADERS, PRIORITY, RST_STREAM, SETTINGS, PUSH_PROMISE, PING, GOAWAY, WINDOW_UPDATE, CONTINUATION = range(10)
END_STREAM = ACK = 0x1
END_HEADERS = 0x4
ENABLE_PUSH, INITIAL_WINDOW_SIZE, MAX_FRAME_SIZE = 2, 4, 5
ERRORS = ("NO_ERROR", "PROTOCOL_ERROR", "INTERNAL_ERROR", "FLOW_CONTROL_ERROR", "SETTINGS_TIMEOUT", "STREAM_CLOSED",
          "FRAME_SIZE_ERROR", "REFUSED_STREAM", "CANCEL", "COMPRESSION_ERROR", "CONNECT_ERROR", "ENHANCE_YOUR_CALM",
          "INADEQUATE_SECURITY", "HTTP_1_1_REQUIRED")
PROTOCOL_ERROR, FLOW_CONTROL_ERROR, FRAME_SIZE_ERROR, CANCEL, ENHANCE_YOUR_CALM = 1, 3, 6, 8, 11
DEFAULT_WINDOW = 65535
DEFAULT_FRAME = 16384


def error_name(code: int | None) -> str:
    return "none" if code is None else ERRORS[code] if code < len(ERRORS) else f"error 0x{code:x}"


@dataclass(frozen=True)
class Frame:
    type: int
    flags: int
    stream: int
    payload: bytes

    def code(self) -> int | None:
        """The error code of a GOAWAY or RST_STREAM."""
        if self.type == GOAWAY and len(self.payload) >= 8:
            return struct.unpack(">I", self.payload[4:8])[0]
        if self.type == RST_STREAM and len(self.payload) >= 4:
            return struct.unpack(">I", self.payload[:4])[0]
        return None

    def settings(self) -> dict[int, int]:
        pairs = len(self.payload) // 6
        return dict(struct.unpack(">HI", self.payload[i * 6:i * 6 + 6]) for i in range(pairs))


def frame(kind: int, flags: int, stream: int, payload: bytes = b"") -> bytes:
    return struct.pack(">I", len(payload))[1:] + bytes((kind, flags)) + struct.pack(">I", stream & 0x7FFFFFFF) + payload


def settings(*pairs: tuple[int, int], flags: int = 0) -> bytes:
    return frame(SETTINGS, flags, 0, b"".join(struct.pack(">HI", k, v) for k, v in pairs))


def window_update(stream: int, increment: int) -> bytes:
    return frame(WINDOW_UPDATE, 0, stream, struct.pack(">I", increment))


def rst_stream(stream: int, code: int) -> bytes:
    return frame(RST_STREAM, 0, stream, struct.pack(">I", code))


def block(fields: list[tuple[str, str]]) -> bytes:
    """A header block: every field a literal (no Huffman), so the bytes on the wire are readable in a dump."""
    return hpack.Encoder().encode(fields, huffman=False)


def request_fields(target: Target, method: str = "GET", path: str | None = None) -> list[tuple[str, str]]:
    return [(":method", method), (":scheme", "https" if target.tls else "http"), (":authority", target.authority),
            (":path", target.plaintext if path is None else path)]


def headers(stream: int, fields: list[tuple[str, str]], end_stream: bool = True) -> bytes:
    return frame(HEADERS, END_HEADERS | (END_STREAM if end_stream else 0), stream, block(fields))


def start() -> bytes:
    """The client's connection preface and its (empty) SETTINGS."""
    return PREFACE + settings()


def connect(target: Target, timeout: float) -> socket.socket:
    """A socket to the target: cleartext for h2c (prior knowledge), else TLS offering ALPN h2 alone."""
    sock = socket.create_connection((target.host, target.port), timeout=timeout)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if not target.tls:
        return sock
    try:
        context = httpget.tls_context(target.ca, ("h2",))
        if target.ca is None:
            context.check_hostname, context.verify_mode = False, 0
        tls = context.wrap_socket(sock, server_hostname=target.host)
        if tls.selected_alpn_protocol() != "h2":
            raise OSError(f"the server selected ALPN {tls.selected_alpn_protocol()!r}, not h2")
        return tls
    except BaseException:
        sock.close()
        raise


def split(buffer: bytearray) -> list[Frame]:
    """The complete frames at the start of `buffer`, removed from it."""
    frames = []
    while len(buffer) >= 9:
        length = int.from_bytes(buffer[:3], "big")
        if len(buffer) < 9 + length:
            break
        frames.append(Frame(buffer[3], buffer[4], int.from_bytes(buffer[5:9], "big") & 0x7FFFFFFF,
                            bytes(buffer[9:9 + length])))
        del buffer[:9 + length]
    return frames
