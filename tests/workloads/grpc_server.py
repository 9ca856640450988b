"""A tiny real gRPC server (grpcio) of proto/bench.proto for the gRPC workloads' tests: right, or with one flaw."""

from __future__ import annotations

import contextlib
from concurrent import futures
from pathlib import Path
from typing import Iterator

import grpc

from webshootout.workloads import grpc_calls

FLAWS = ("internal", "wrong sum", "malformed", "one message short", "negative accepted", "int32 values")


def _handlers(flaw: str | None) -> grpc.GenericRpcHandler:
    proto = grpc_calls.messages()

    def sum_(request, context):
        if flaw == "internal":
            context.abort(grpc.StatusCode.INTERNAL, "flawed on purpose")
        if (request.a < 0 or request.b < 0) and flaw != "negative accepted":
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "a and b must not be negative")
        if flaw == "malformed":
            return b"\xff\xff\xff"  # not a protobuf message: an unterminated varint tag
        return proto.SumReply(sum=request.a + request.b + (flaw == "wrong sum")).SerializeToString()

    def count(request, context):
        if not 1 <= request.n <= 1000 or request.start < 0:
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "n outside 1..1000 or start negative")
        n = request.n - 1 if flaw == "one message short" else request.n
        for i in range(n):
            value = request.start + i
            yield proto.CountReply(value=value - 2**32 if flaw == "int32 values" and value >= 2**31 else value)\
                .SerializeToString()

    methods = {
        "Sum": grpc.unary_unary_rpc_method_handler(sum_, request_deserializer=proto.SumRequest.FromString),
        "Count": grpc.unary_stream_rpc_method_handler(count, request_deserializer=proto.CountRequest.FromString),
    }
    return grpc.method_handlers_generic_handler("webshootout.Bench", methods)


@contextlib.contextmanager
def serving(flaw: str | None = None, certs=None) -> Iterator[int]:
    """The server on a free port of 127.0.0.1 (TLS with `certs`, services/certs.py's), stopped on leaving."""
    server = grpc.server(futures.ThreadPoolExecutor(max_workers=4), handlers=[_handlers(flaw)])
    if certs is None:
        port = server.add_insecure_port("127.0.0.1:0")
    else:
        identity = ((Path(certs.key).read_bytes(), Path(certs.cert).read_bytes()),)
        port = server.add_secure_port("127.0.0.1:0", grpc.ssl_server_credentials(identity))
    server.start()
    try:
        yield port
    finally:
        server.stop(grace=None).wait(5)
