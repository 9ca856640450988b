"""One module per workload; each has verify(Context) and target(Context) -> Target. Shared by them: headers
(Server, Date, Content-Type rules), techempower (TechEmpower's verification rules); keepalive measures how
many TCP connections a few requests take."""

from types import ModuleType

from . import db, hash, json, plaintext, session, static, websocket
from .base import Context, Target, VerifyError

MODULES: dict[str, ModuleType] = {
    "plaintext": plaintext, "json": json, "db": db, "session": session, "hash": hash, "static": static,
    "websocket": websocket,
}
NEEDS_DATABASE = {"db", "session"}

__all__ = ["MODULES", "NEEDS_DATABASE", "Context", "Target", "VerifyError"]
