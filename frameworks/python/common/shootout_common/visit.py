"""What the session workload's stores share: the cookie, one visit's outcome, the row's JSON."""

import json
from dataclasses import dataclass

COOKIE = "uid"


@dataclass(frozen=True)
class Visit:
    uid: str
    count: int
    is_new: bool  # the answer must set the cookie


def data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))
