"""What the gRPC workloads share: the service of proto/bench.proto as grpcio (the reference client) sees it, the
check's calls and their errors, and shootout-load's --grpc spec of requests and the exact answers they must get."""

from __future__ import annotations

import functools
import json
import sys
from pathlib import Path
from typing import Callable

import grpc

from .base import Context, VerifyError

PROTO = Path(__file__).resolve().parents[3] / "proto" / "bench.proto"
TIMEOUT = 10.0  # seconds a check's call may take
# Distinct requests per method under load: every connection cycles through them, each encoded once.
DISTINCT = 64


@functools.cache
def messages():
    """The proto's message classes, compiled from proto/bench.proto at first use by grpcio-tools' protoc (grpcio
    finds a proto file on sys.path)."""
    if str(PROTO.parent) not in sys.path:
        sys.path.append(str(PROTO.parent))
    return grpc.protos(PROTO.name)


def channel(ctx: Context) -> grpc.Channel:
    """A channel to the server: h2c with prior knowledge, or TLS (ALPN h2) verified against the run's CA. Never
    through a proxy from the environment."""
    target, options = f"{ctx.host}:{ctx.port}", [("grpc.enable_http_proxy", 0)]
    if ctx.link.ca is None:
        return grpc.insecure_channel(target, options)
    credentials = grpc.ssl_channel_credentials(root_certificates=ctx.link.ca.read_bytes())
    return grpc.secure_channel(target, credentials, options)


def _raw(data: bytes) -> bytes:
    return data


def answers(ctx: Context, call: Callable, request, name: str) -> list[bytes]:
    """Every message `call` (a grpcio callable of `channel`, bytes in and out) answers `request` with, raising
    VerifyError for any status but OK."""
    try:
        found = call(request.SerializeToString(), timeout=TIMEOUT)
        return [found] if isinstance(found, bytes) else list(found)
    except grpc.RpcError as exc:
        raise VerifyError(_what(ctx, name, request), f"status {_status(exc)}, expected OK") from None


def expect_bytes(ctx: Context, name: str, request, got: list[bytes], replies: list) -> None:
    """The answer's messages must be the replies' encodings, byte for byte: what shootout-load compares."""
    want = [reply.SerializeToString() for reply in replies]
    if got != want:
        shown = [_shown(type(replies[0]), m) for m in got[:3]] if replies else got[:3]
        raise VerifyError(_what(ctx, name, request),
                          f"{len(got)} message(s) {shown}{' ...' if len(got) > 3 else ''}, expected {len(want)}: "
                          f"{[_text(r) for r in replies[:3]]}{' ...' if len(want) > 3 else ''} (or "
                          f"their bytes differ from the reference encoding: {got[:1]!r} vs {want[:1]!r})")


def _shown(reply_type, message: bytes) -> str:
    try:
        return _text(reply_type.FromString(message))
    except Exception:  # noqa: BLE001 - protobuf's DecodeError: not a message at all
        return f"not a {reply_type.__name__}: {message!r}"


def expect_invalid(ctx: Context, call: Callable, request, name: str) -> None:
    """`request` must end with status INVALID_ARGUMENT and no message."""
    got = []
    try:
        found = call(request.SerializeToString(), timeout=TIMEOUT)
        got = [found] if isinstance(found, bytes) else [m for m in found]
    except grpc.RpcError as exc:
        if exc.code() == grpc.StatusCode.INVALID_ARGUMENT and not got:
            return
        raise VerifyError(_what(ctx, name, request), f"status {_status(exc)} after {len(got)} message(s), "
                                                     "expected INVALID_ARGUMENT and no message") from None
    raise VerifyError(_what(ctx, name, request), f"status OK with {len(got)} message(s), expected INVALID_ARGUMENT")


def verify(ctx: Context, name: str, open_call: Callable, valid: list, invalid: list) -> None:
    """Each of `valid`, (request, replies), must answer exactly its replies with status OK, and each `invalid`
    request INVALID_ARGUMENT and no message; `open_call(channel, path)` is the method's grpcio callable."""
    with channel(ctx) as ch:
        call = open_call(ch, ctx.path)
        for request, replies in valid:
            expect_bytes(ctx, name, request, answers(ctx, call, request, name), replies)
        for request in invalid:
            expect_invalid(ctx, call, request, name)


def unary(ch: grpc.Channel, path: str) -> Callable:
    return ch.unary_unary(path, request_serializer=_raw, response_deserializer=_raw)


def server_stream(ch: grpc.Channel, path: str) -> Callable:
    return ch.unary_stream(path, request_serializer=_raw, response_deserializer=_raw)


def load_spec(calls: list[tuple[object, list]]) -> str:
    """shootout-load's --grpc: each (request, replies) as the hex of their encodings."""
    encoded = [{"request": _hex(request), "replies": [_hex(reply) for reply in replies]} for request, replies in calls]
    return json.dumps({"calls": encoded}, separators=(",", ":"))


def _hex(message) -> str:
    return message.SerializeToString().hex()


def _text(message) -> str:
    return f"{type(message).__name__}({' '.join(str(message).split())})"


def _what(ctx: Context, name: str, request) -> str:
    return f"{name}{_text(request).removeprefix(type(request).__name__)} at {ctx.path} over {'TLS' if ctx.link.ca else 'h2c'}"


def _status(exc: grpc.RpcError) -> str:
    code = exc.code()
    return f"{code.name} ({code.value[0]}): {exc.details()!r}" if code else str(exc)
