"""One module per workload, each with its WORKLOAD (spec.py), found by registry.py. Shared by them: headers
(Server, Date, Content-Type rules), techempower and techempower_db (TechEmpower's verification rules), rows
(the world rows queries, updates and cached answer), concurrent (requests at once); keepalive measures how
many TCP connections a few requests take."""

import http.client
from typing import Callable

from .base import Context, Target, VerifyError
from .registry import REGISTRY


def verify_all(contexts: dict[str, Context]) -> dict[str, str | None]:
    """Per workload, None when it meets the contract through its context, else the reason (request and
    difference)."""
    return dict(zip(contexts, verify_each(list(contexts.items()))))


def verify_each(checks: list[tuple[str, Context]]) -> list[str | None]:
    """verify_all for (workload, context) pairs, one workload maybe through several contexts (links). Each check's
    Date must change over DATE_TICK: the checks run one after another, and only then do their second answers come,
    so one wait serves them all. The contexts are closed at the end."""
    try:
        reasons = [_reason(workload, REGISTRY[workload].verify, ctx) for workload, ctx in checks]
        for i, (workload, ctx) in enumerate(checks):
            if reasons[i] is None:
                reasons[i] = _reason(workload, Context.finish, ctx)
    finally:
        for _, ctx in checks:
            ctx.close()
    return reasons


def _reason(workload: str, step: Callable[[Context], None], ctx: Context) -> str | None:
    try:
        step(ctx)
    except VerifyError as exc:
        return str(exc)
    except (OSError, http.client.HTTPException) as exc:
        return f"{workload}: the request failed: {type(exc).__name__}: {exc}"
    return None


__all__ = ["Context", "Target", "VerifyError", "verify_all", "verify_each"]
