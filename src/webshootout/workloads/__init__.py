"""One module per workload; each has verify(Context) and target(Context) -> Target. Shared by them: headers
(Server, Date, Content-Type rules), techempower and techempower_db (TechEmpower's verification rules), rows
(the world rows queries, updates and cached answer), concurrent (requests at once); keepalive measures how
many TCP connections a few requests take."""

from types import ModuleType

from . import cached, db, fortunes, hash, json, plaintext, queries, session, static, updates, websocket
from .base import Context, Target, VerifyError

MODULES: dict[str, ModuleType] = {
    "plaintext": plaintext, "json": json, "db": db, "session": session, "hash": hash, "static": static,
    "websocket": websocket, "queries": queries, "updates": updates, "fortunes": fortunes, "cached": cached,
}
NEEDS_DATABASE = {"db", "session", "queries", "updates", "fortunes", "cached"}

__all__ = ["MODULES", "NEEDS_DATABASE", "Context", "Target", "VerifyError"]
