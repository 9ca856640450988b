"""plaintext: GET -> text/plain `Hello, World!`."""

from . import techempower
from .base import Context, Target, expect, expect_body
from .headers import TEXT_UTF8
from .spec import Workload

BODY = "Hello, World!"


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for i in range(3):  # more than once: the answer must hold on a kept-alive connection too
        response = visitor.get(ctx.path)
        expect(f"GET {ctx.path} (#{i + 1})", response, content_type=TEXT_UTF8)
        expect_body(f"GET {ctx.path} (#{i + 1})", response, BODY.encode())
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.plaintext_problems(ctx.path, first, later)))


def target(ctx: Context) -> Target:
    return Target(ctx.path, expect_body=BODY)


WORKLOAD = Workload("plaintext", 1, verify, target, quick=True, techempower=(7, "plaintext"))
