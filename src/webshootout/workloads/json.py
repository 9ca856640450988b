"""json: GET -> application/json `{"message":"Hello, World!"}`, serialized per request."""

import json

from . import techempower
from .base import Context, Target, VerifyError, expect, shown
from .spec import Workload

VALUE = {"message": "Hello, World!"}


def verify(ctx: Context) -> None:
    visitor = ctx.visitor()
    for i in range(3):
        request = f"GET {ctx.path} (#{i + 1})"
        response = visitor.get(ctx.path)
        expect(request, response, content_type="application/json")
        try:
            value = json.loads(response.body)
        except ValueError:
            raise VerifyError(request, f"body is not JSON: {shown(response.body)}") from None
        if value != VALUE:
            raise VerifyError(request, f"JSON {value!r}, expected {VALUE!r}")
    ctx.after_a_tick(lambda first, later: techempower.enforce(
        f"GET {ctx.path}", techempower.json_problems(first, later)))


def target(ctx: Context) -> Target:
    return Target(ctx.path, expect_body_regex=r'^\{\s*"message"\s*:\s*"Hello, World!"\s*\}\s*$')


WORKLOAD = Workload("json", 2, verify, target, techempower=(1, "JSON"))
