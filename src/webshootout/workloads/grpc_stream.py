"""grpc-stream: Bench.Count streams n messages start + i, and INVALID_ARGUMENT outside its limits."""

from . import grpc_calls
from .base import Context, Target
from .spec import Axis, Workload, positive_ints

MAX_MESSAGES = 1000  # the contract's limit on n
COUNTS = ((0, 1), (7, 10), (2**31 - 1, MAX_MESSAGES))  # (start, n): the last passes 2^31 (values are int64)
INVALID = ((0, 0), (0, MAX_MESSAGES + 1), (-1, 5), (0, -3))

MESSAGES = Axis("messages", (10,), lambda key, value: positive_ints(key, value, MAX_MESSAGES),
                lambda n: f"messages={n}", "10,100", "messages per grpc-stream call, one point each (default 10)",
                per_request="messages per call", unit="messages")


def _replies(proto, start: int, n: int) -> list:
    return [proto.CountReply(value=start + i) for i in range(n)]


def verify(ctx: Context) -> None:
    proto = grpc_calls.messages()
    grpc_calls.verify(ctx, "Count", grpc_calls.server_stream,
                      [(proto.CountRequest(start=start, n=n), _replies(proto, start, n)) for start, n in COUNTS],
                      [proto.CountRequest(start=start, n=n) for start, n in INVALID])


def target(ctx: Context, n: int) -> Target:
    proto = grpc_calls.messages()
    calls = [(proto.CountRequest(start=1000 * k, n=n), _replies(proto, 1000 * k, n))
             for k in range(grpc_calls.DISTINCT)]
    return Target(ctx.path, method="POST", grpc=grpc_calls.load_spec(calls))


WORKLOAD = Workload("grpc-stream", 18, verify, target, axis=MESSAGES, http2_only=True, streams_messages=True)
