"""Bench (proto/bench.proto) for grpcio: the messages and stubs grpcio-tools generated at setup into build/, and
the two methods, sync and asyncio."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent / "build"))

import bench_pb2  # noqa: E402  (generated at setup)
import bench_pb2_grpc  # noqa: E402

import grpc  # noqa: E402

MAX_COUNT = 1000


def _invalid_sum(request) -> bool:
    return request.a < 0 or request.b < 0


def _invalid_count(request) -> bool:
    return not 1 <= request.n <= MAX_COUNT or request.start < 0


class Bench(bench_pb2_grpc.BenchServicer):
    """The sync server's: each call on a thread of the server's pool."""

    def Sum(self, request, context):
        if _invalid_sum(request):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, "a and b must not be negative")
        return bench_pb2.SumReply(sum=request.a + request.b)

    def Count(self, request, context):
        if _invalid_count(request):
            context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"n must be 1..{MAX_COUNT} and start not negative")
        for i in range(request.n):
            yield bench_pb2.CountReply(value=request.start + i)


class AsyncBench(bench_pb2_grpc.BenchServicer):
    """grpc.aio's: coroutines on the process's event loop."""

    async def Sum(self, request, context):
        if _invalid_sum(request):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "a and b must not be negative")
        return bench_pb2.SumReply(sum=request.a + request.b)

    async def Count(self, request, context):
        if _invalid_count(request):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, f"n must be 1..{MAX_COUNT} and start not negative")
        for i in range(request.n):
            yield bench_pb2.CountReply(value=request.start + i)


def add(servicer, server) -> None:
    bench_pb2_grpc.add_BenchServicer_to_server(servicer, server)
