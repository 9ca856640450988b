"""grpc-unary: Bench.Sum answers a + b, and INVALID_ARGUMENT for a negative operand."""

from . import grpc_calls
from .base import Context, Target
from .spec import Workload

MAX = 2**31 - 1
SUMS = ((0, 0), (1, 2), (MAX, MAX), (40_000, 1), (0, MAX))
INVALID = ((-1, 5), (5, -1), (-MAX - 1, -MAX - 1))


def verify(ctx: Context) -> None:
    proto = grpc_calls.messages()
    grpc_calls.verify(ctx, "Sum", grpc_calls.unary,
                      [(proto.SumRequest(a=a, b=b), [proto.SumReply(sum=a + b)]) for a, b in SUMS],
                      [proto.SumRequest(a=a, b=b) for a, b in INVALID])


def target(ctx: Context) -> Target:
    proto = grpc_calls.messages()
    calls = [(proto.SumRequest(a=k, b=1000 * k), [proto.SumReply(sum=1001 * k)]) for k in range(grpc_calls.DISTINCT)]
    return Target(ctx.path, method="POST", grpc=grpc_calls.load_spec(calls))


WORKLOAD = Workload("grpc-unary", 17, verify, target, http2_only=True)
