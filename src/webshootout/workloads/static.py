"""static: GET -> the exact bytes of STATIC_DIR/index.html as text/html."""

from .base import Context, Target, expect, expect_body
from .spec import Workload


def verify(ctx: Context) -> None:
    page = ctx.assets.index_html.read_bytes()
    visitor = ctx.visitor()
    for i in range(2):
        response = visitor.get(ctx.path)
        expect(f"GET {ctx.path} (#{i + 1})", response, content_type="text/html")
        expect_body(f"GET {ctx.path} (#{i + 1})", response, page)
    ctx.after_a_tick()


def target(ctx: Context) -> Target:
    return Target(ctx.path, expect_body=ctx.assets.index_html.read_text())


WORKLOAD = Workload("static", 6, verify, target)
