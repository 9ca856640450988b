"""Reading the server's answers out of the bytes it sent: status lines, fields and bodies by their framing.

Lenient on purpose where the server is concerned (a bare LF ends a line, field names in any case): the
probes grade what the server accepted, not how neatly it answered."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_STATUS = re.compile(rb"HTTP/(\d)\.(\d) (\d{3})(?: [^\r\n]*)?\r?\n")
_HEAD_END = re.compile(rb"\r?\n\r?\n")


@dataclass(frozen=True)
class Response:
    status: int
    version: str  # "1.1"
    fields: tuple[tuple[str, str], ...] = ()  # (lowercase name, value) in order
    body: bytes = b""

    def field(self, name: str) -> str | None:
        values = [v for n, v in self.fields if n == name]
        return ", ".join(values) if values else None

    def says_close(self) -> bool:
        return "close" in _tokens(self.field("connection"))

    def says_keep_alive(self) -> bool:
        return "keep-alive" in _tokens(self.field("connection"))


@dataclass
class Parsed:
    finals: list[Response] = field(default_factory=list)
    interims: list[Response] = field(default_factory=list)  # 1xx, 100 Continue among them
    rest: bytes = b""  # bytes after the last complete answer: a partial one, or garbage


def _tokens(value: str | None) -> set[str]:
    return {t.strip().lower() for t in (value or "").split(",")}


def _fields(block: bytes) -> tuple[tuple[str, str], ...]:
    found = []
    for line in re.split(rb"\r?\n", block):
        name, colon, value = line.partition(b":")
        if colon:
            found.append((name.strip().decode("latin-1").lower(), value.strip().decode("latin-1")))
    return tuple(found)


def _chunked(data: bytes) -> tuple[bytes, int] | None:
    """The decoded body and the bytes it took, or None while incomplete (ValueError: not chunked at all)."""
    body, at = bytearray(), 0
    while True:
        end = data.find(b"\n", at)
        if end < 0:
            return None
        size = int(data[at:end].split(b";")[0].strip(), 16)
        at = end + 1
        if size == 0:
            for blank in (b"\r\n", b"\n"):
                if data.startswith(blank, at):
                    return bytes(body), at + len(blank)
            trailers = _HEAD_END.search(data, at)
            return None if trailers is None else (bytes(body), trailers.end())
        if len(data) < at + size + 2:
            return None
        body += data[at:at + size]
        at += size + (2 if data[at + size:at + size + 1] == b"\r" else 1)


def _one(data: bytes, head_request: bool, eof: bool) -> tuple[Response, int] | None:
    """The first answer in `data` and the bytes it took, or None while incomplete."""
    status = _STATUS.match(data)
    end = _HEAD_END.search(data, status.end() - 2) if status else None
    if status is None or end is None:
        return None
    fields = _fields(data[status.end():end.start()])
    code, version = int(status.group(3)), f"{int(status.group(1))}.{int(status.group(2))}"
    response = Response(code, version, fields)
    at = end.end()
    if head_request or code < 200 or code in (204, 304):
        return response, at
    if "chunked" in _tokens(response.field("transfer-encoding")):
        decoded = _chunked(data[at:])
        if decoded is None:
            return None
        return Response(code, version, fields, decoded[0]), at + decoded[1]
    length = response.field("content-length")
    if length is not None and length.split(",")[0].strip().isdigit():
        size = int(length.split(",")[0])
        if len(data) < at + size:
            return None
        return Response(code, version, fields, data[at:at + size]), at + size
    if not eof:  # delimited by the close
        return None
    return Response(code, version, fields, data[at:]), len(data)


def answers(data: bytes, heads: tuple[bool, ...], eof: bool) -> Parsed:
    """The answers in `data`, in order; `heads[i]` says the i-th request was a HEAD (no content follows)."""
    parsed, at = Parsed(), 0
    while at < len(data):
        head_request = heads[len(parsed.finals)] if len(parsed.finals) < len(heads) else False
        try:
            one = _one(data[at:], head_request, eof)
        except ValueError:  # a chunk size that is no number: the rest is garbage
            one = None
        if one is None:
            break
        response, used = one
        (parsed.interims if response.status < 200 else parsed.finals).append(response)
        at += used
    parsed.rest = data[at:]
    return parsed
