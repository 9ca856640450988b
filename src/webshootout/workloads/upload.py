"""upload and upload-chunked: POST a body -> `<bytes read> <SHA-256 hex>`, framed by Content-Length (upload) or
chunked (upload-chunked); bodies up to MAX_ACCEPTED must be read whole, one over REFUSED_FROM refused."""

from __future__ import annotations

import hashlib
import http.client
import os
import re
import socket
import time

from ..system import httpget
from . import refusal
from .base import Context, Target, VerifyError, expect, shown
from .headers import TEXT_UTF8
from .probe import BODY_LIMIT, Response, joined
from .spec import Axis, Workload, positive_ints

MAX_ACCEPTED = 1 << 20
REFUSED_FROM = 16 << 20
OVERSIZE = REFUSED_FROM + 1
LOAD_CHUNK = 16 << 10  # upload-chunked's chunk under load
PIECE = 256  # bytes per write of the split body
CONTENT_TYPE = "application/octet-stream"
TIMEOUT = 30.0
SEND_TIMEOUT = 2.0  # a server that stopped reading an over-size body has had its say by then
LAST_CHUNK = b"0\r\n\r\n"
_ANSWER = re.compile(rb"^(\d+) ([0-9a-f]{64})\s*$")


def pattern(size: int) -> bytes:
    """The body the load sends: byte i is i mod 251 (shootout-load's --body-size makes the same)."""
    return (bytes(range(251)) * (size // 251 + 1))[:size]


def answer_for(body: bytes) -> str:
    return f"{len(body)} {hashlib.sha256(body).hexdigest()}"


def _expect_answer(request: str, response, body: bytes) -> None:
    expect(request, response, content_type=TEXT_UTF8)
    found = _ANSWER.match(response.body)
    wanted = answer_for(body)
    if found is None:
        raise VerifyError(request, f"body {shown(response.body)}, expected '<bytes read> <SHA-256 hex>': {wanted!r}")
    if int(found[1]) != len(body):
        raise VerifyError(request, f"the server read {int(found[1])} bytes of the {len(body)} sent")
    if found[2].decode() != hashlib.sha256(body).hexdigest():
        raise VerifyError(request, f"SHA-256 {found[2].decode()}, expected {wanted.split()[1]} (the digest of the "
                                   f"whole body)")


def _connect(ctx: Context) -> socket.socket:
    sock = socket.create_connection((ctx.host, ctx.port), timeout=TIMEOUT)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    if ctx.link.ca is not None:
        return httpget.tls_context(ctx.link.ca).wrap_socket(sock, server_hostname=ctx.host)
    return sock


def head(ctx: Context, framing: str) -> bytes:
    return (f"POST {ctx.path} HTTP/1.1\r\nHost: {ctx.host}:{ctx.port}\r\nContent-Type: {CONTENT_TYPE}\r\n"
            f"{framing}\r\n\r\n").encode()


def chunked(body: bytes, sizes: list[int]) -> list[bytes]:
    """`body` as chunk frames of the given sizes in turn (the last repeated), then the last chunk."""
    frames, at, turn = [], 0, 0
    while at < len(body):
        size = sizes[min(turn, len(sizes) - 1)]
        frames.append(f"{len(body[at:at + size]):x}\r\n".encode() + body[at:at + size] + b"\r\n")
        at, turn = at + size, turn + 1
    return frames + [LAST_CHUNK]


def _answer(sock: socket.socket) -> Response:
    raw = http.client.HTTPResponse(sock, method="POST")
    try:
        raw.begin()
        return Response(raw.status, joined(raw.headers.items()), (), raw.read(BODY_LIMIT))
    finally:
        raw.close()  # its file holds the socket open past the caller's close


def sent_in_pieces(ctx: Context, request: str, head: bytes, pieces: list[bytes], body: bytes) -> None:
    """Writes `pieces` one by one (a pause every 16) and checks the answer against `body`."""
    with _connect(ctx) as sock:
        sock.sendall(head)
        for i, piece in enumerate(pieces):
            sock.sendall(piece)
            if i % 16 == 15:
                time.sleep(0.001)
        _expect_answer(request, _answer(sock), body)


def refused(ctx: Context, request: str, head: bytes, frames) -> None:
    """Sends an over-size body until the server answers, closes or stops reading; it must refuse it (4xx or a
    close), then answer a new connection."""
    try:
        with _connect(ctx) as sock:
            sock.sendall(head)
            status = refusal.answer_to(sock, frames, SEND_TIMEOUT, TIMEOUT)
    except refusal.Hung:
        raise VerifyError(request, f"no answer and no close within {TIMEOUT:.0f} s: an over-size body must be "
                                   "refused (413, another 4xx, or a closed connection)") from None
    except refusal.GONE:
        status = None  # closed before the head was taken
    if status is not None and not 400 <= status < 500:
        raise VerifyError(request, f"status {status}: a body over {REFUSED_FROM >> 20} MiB must be refused (413, "
                                   "another 4xx, or a closed connection)")
    post(ctx, ctx.visitor(), 1024, ", on a new connection after the over-size body")


def oversize(size: int = OVERSIZE, piece: int = 64 << 10):
    block = os.urandom(piece)
    for at in range(0, size, piece):
        yield block[:min(piece, size - at)]


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for size in (0, 1024, 64 << 10, MAX_ACCEPTED, 1024):  # the last on the same kept connection as the others
        post(ctx, visitor, size)
    body = os.urandom(64 << 10)
    sent_in_pieces(ctx, f"POST {ctx.path} (64 KiB, Content-Length, written {PIECE} bytes at a time)",
                    head(ctx, f"Content-Length: {len(body)}"),
                    [body[i:i + PIECE] for i in range(0, len(body), PIECE)], body)
    refused(ctx, f"POST {ctx.path} (Content-Length: {OVERSIZE})", head(ctx, f"Content-Length: {OVERSIZE}"),
             oversize())
    ctx.after_a_tick()


def post(ctx: Context, visitor, size: int, note: str = "") -> None:
    """A random body of `size` bytes with Content-Length through `visitor`, its answer checked."""
    body = os.urandom(size)
    _expect_answer(f"POST {ctx.path} ({size} bytes, Content-Length{note})",
                   visitor.request("POST", ctx.path, {"Content-Type": CONTENT_TYPE}, body), body)


def target_for(chunk: int | None):
    def target(ctx: Context, size: int) -> Target:
        return Target(ctx.path, method="POST", headers=(f"Content-Type: {CONTENT_TYPE}",), body_bytes=size,
                      chunk_bytes=chunk, expect_body_regex=rf"^{answer_for(pattern(size))}\s*$")
    return target


BODY_BYTES = Axis("body_bytes", (1024,), lambda key, value: positive_ints(key, value, MAX_ACCEPTED),
                  lambda n: f"body={n >> 10}k" if n % 1024 == 0 else f"body={n}", "1024,65536,1048576",
                  "request body bytes of upload and upload-chunked, one point each (default 1024)",
                  per_request="request body (bytes)", unit="bytes")
WORKLOAD = Workload("upload", 14, verify, target_for(None), axis=BODY_BYTES, http1_only=True, reads_body=True)
