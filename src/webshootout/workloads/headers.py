"""The headers every answer carries (docs/workloads.md, Headers): `Server`, a current `Date` in IMF-fixdate
(RFC 9110, section 5.6.7), and the workload's Content-Type."""

from __future__ import annotations

import re
import time
from datetime import datetime, timezone

from .probe import Response

TEXT_UTF8 = "text/plain; charset=utf-8"
DATE_SKEW = 5.0  # seconds a Date may differ from this machine's clock (same host: one second of caching)
DATE_TICK = 1.1  # seconds after which a current Date must have changed

_DAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
_MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")
_FIXDATE = re.compile(r"(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT")


def parse_date(value: str) -> datetime:
    """An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) as an aware datetime; ValueError names the value."""
    match = _FIXDATE.fullmatch(value)
    if not match or match[1] not in _DAYS or match[3] not in _MONTHS:
        raise ValueError(f"{value!r} is not an IMF-fixdate like 'Sun, 06 Nov 1994 08:49:37 GMT'")
    day, year, hour, minute, second = (int(match[i]) for i in (2, 4, 5, 6, 7))
    try:
        when = datetime(year, _MONTHS.index(match[3]) + 1, day, hour, minute, second, tzinfo=timezone.utc)
    except ValueError:
        raise ValueError(f"{value!r} is not a calendar date") from None
    if _DAYS[when.weekday()] != match[1]:
        raise ValueError(f"{value!r}: {when:%d %b %Y} is a {_DAYS[when.weekday()]}, not a {match[1]}")
    return when


def server_and_date(response: Response, now: float | None = None) -> str | None:
    """What is wrong with the answer's Server and Date headers, or None. The Date must be within
    DATE_SKEW seconds of `now` (epoch seconds; default: this machine's clock)."""
    if not response.headers.get("server", "").strip():
        return "no Server header (every response names its server, e.g. 'Server: Gin')"
    date = response.headers.get("date")
    if date is None:
        return "no Date header (an HTTP/1.1 origin server with a clock sends one, RFC 9110)"
    try:
        when = parse_date(date)
    except ValueError as exc:
        return f"Date header: {exc}"
    skew = when.timestamp() - (time.time() if now is None else now)
    if abs(skew) > DATE_SKEW:
        return f"Date header {date!r} is {abs(skew):.0f} s {'ahead of' if skew > 0 else 'behind'} this machine's clock"
    return None


def _normal(value: str) -> str:
    return value.replace(" ", "").replace("\t", "").lower()


def content_type_matches(value: str, expected: str) -> bool:
    """`expected` with parameters must match whole (case and spaces aside); without, only the media type
    must match and any parameter (a charset) is allowed."""
    if ";" in expected:
        return _normal(value) == _normal(expected)
    return _normal(value).split(";")[0] == _normal(expected)
