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
    difference). Each check's Date must change over DATE_TICK: the checks run one after another, and only then
    do their second answers come, so one wait serves them all. The contexts are closed at the end."""
    try:
        reasons = {workload: _reason(workload, REGISTRY[workload].verify, ctx) for workload, ctx in contexts.items()}
        for workload, ctx in contexts.items():
            if reasons[workload] is None:
                reasons[workload] = _reason(workload, Context.finish, ctx)
    finally:
        for ctx in contexts.values():
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


__all__ = ["Context", "Target", "VerifyError", "verify_all"]
