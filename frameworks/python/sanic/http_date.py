"""The Date header's value (RFC 9110 IMF-fixdate), formatted once per second rather than per response."""

import time
from email.utils import formatdate

_second = -1
_value = ""


def http_date() -> str:
    global _second, _value
    now = int(time.time())
    if now != _second:
        _second, _value = now, formatdate(now, usegmt=True)
    return _value
