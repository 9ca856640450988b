"""crud's load: the seeded mix of verbs shootout-load sends (its --mix), and the table a trial must leave."""

from __future__ import annotations

import json

SEED = 20261128  # one schedule for every stack: the same requests in the same order on each connection
UPDATED = '{"name": "updated", "quantity": 7}'
CREATED = '{"name": "created", "quantity": 1}'
JSON_HEADER = "Content-Type: application/json"
_ITEM = r'"id"\s*:\s*\d+'


def spec(path: str, seeded: int) -> str:
    """shootout-load's --mix: per 20 requests on a connection, 14 reads of one seeded item, 2 pages, 2 updates of a
    seeded item, a create, and a delete of the item the create made (its Location's last segment)."""
    pages = seeded // 10
    steps = [
        _step("get", 14, f"GET {path}/{{rand:1:{seeded}}}", 200, body_regex=_ITEM),
        _step("page", 2, f"GET {path}?page={{rand:1:{pages}}}&size=10", 200, body_regex=r"^\s*\[\s*\{"),
        _step("update", 2, f"PUT {path}/{{rand:1:{seeded}}}", 200, body=UPDATED, body_regex=_ITEM),
        _step("create", 1, f"POST {path}", 201, body=CREATED, body_regex=_ITEM, capture=True),
        _step("delete", 1, f"DELETE {path}/{{captured}}", 204),
    ]
    return json.dumps({"seed": SEED, "steps": steps}, separators=(",", ":"))


def _step(name: str, count: int, request: str, status: int, **answer) -> dict:
    """One kind of request: `request` is "METHOD path"; `answer` may hold its body, body_regex and capture."""
    method, path = request.split(" ", 1)
    body = answer.get("body", "")
    return {"name": name, "count": count, "method": method, "path": path, "status": status, "body": body,
            "headers": [JSON_HEADER] if body else [], "body_regex": answer.get("body_regex"),
            "capture": answer.get("capture", False)}


def table_problem(seeded: int, rows: int, mix: list[dict]) -> str | None:
    """Whether the table holds what the answers said it would: the seeded rows, plus the creates minus the deletes
    answered as done, give or take the creates and deletes still unanswered when the load stopped."""
    steps = {step["name"]: step for step in mix}
    created, deleted = steps["create"]["done"], steps["delete"]["done"]
    low = seeded + created - deleted - steps["delete"]["unanswered"]
    high = seeded + created - deleted + steps["create"]["unanswered"]
    if low <= rows <= high:
        return None
    expected = f"{low}" if low == high else f"{low} to {high}"
    return (f"items holds {rows} rows after the trial; the answers say {expected} ({seeded} seeded + {created} "
            f"created - {deleted} deleted, with {steps['create']['unanswered']} creates and "
            f"{steps['delete']['unanswered']} deletes unanswered at the end)")
