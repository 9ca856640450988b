"""plaintext: GET -> text/plain `Hello, World!`."""

from .base import Context, Target, expect, expect_body

BODY = "Hello, World!"


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for i in range(3):  # more than once: the answer must hold on a kept-alive connection too
        response = visitor.get(ctx.path)
        expect(f"GET {ctx.path} (#{i + 1})", response, content_type="text/plain")
        expect_body(f"GET {ctx.path} (#{i + 1})", response, BODY.encode())


def target(ctx: Context) -> Target:
    return Target(ctx.path, expect_body=BODY)
