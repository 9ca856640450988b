"""The grading rules, each a function of the observation (probe.py says what "bad" becomes)."""

from __future__ import annotations

from .probe import Rule, Verdict
from .target import HELLO
from .wire import Observation

# The statuses that refuse a request for what it is rather than answer it.
REFUSALS = frozenset({400, 408, 411, 413, 414, 417, 431, 501, 505})


def _why_silent(seen: Observation) -> str:
    if seen.closed:
        return "closed without an answer"
    if seen.timed_out:
        return "neither answered nor closed before the deadline"
    return seen.note or "no answer"


def _silent(seen: Observation, hang: str) -> Verdict:
    """No answer: a close refuses, a hang is graded `hang`, anything else (our side failed) warns."""
    return ("pass" if seen.closed else hang if seen.timed_out else "warn"), _why_silent(seen)


def refused(hang: str = "warn", close: bool = False) -> Rule:
    """Must be refused: a refusing status or a close, never a 2xx. `hang` grades a server that neither
    answers nor closes; `close` wants the connection closed after the refusal (RFC 9112 s6.3 on framing)."""
    def rule(seen: Observation) -> Verdict:
        first = seen.first
        if first is None:
            return _silent(seen, hang)
        if first.status in REFUSALS:
            if close and not seen.closed:
                return "warn", f"refused ({first.status}) but kept the connection open, where its framing is lost"
            return "pass", f"refused: {first.status}" + (" and closed" if seen.closed else "")
        if 200 <= first.status < 300:
            return "bad", f"accepted: answered {first.status}"
        return "warn", f"answered {first.status}: neither a refusal nor a success"
    return rule


def framed(hang: str = "warn") -> Rule:
    """A request whose body framing is invalid or ambiguous, followed on the connection by a plain GET: the
    server must refuse it, or (having answered before reading a body its handler ignores) close rather
    than read on. Answering the next request means it framed the body somehow: the smuggling pair
    (RFC 9112 s6.1 and s6.3: close the connection after such a request)."""
    def rule(seen: Observation) -> Verdict:
        finals = seen.parsed.finals
        if not finals:
            return _silent(seen, hang)
        first = finals[0].status
        if first in REFUSALS:
            if len(finals) > 1:
                return "warn", f"refused ({first}) but answered the next request, read where its framing is lost"
            return "pass", f"refused: {first}" + (" and closed" if seen.closed else "")
        if not 200 <= first < 300:
            return "warn", f"answered {first}: neither a refusal nor a success"
        if len(finals) > 1:
            return _next(first, finals[1].status)
        if seen.closed:
            return "pass", f"answered {first} without using the body, then closed rather than frame it"
        # Waiting on the body, or a server that reads no pipelined request: the next probes tell which.
        return "warn", f"answered {first}, then neither answered the next request nor closed"
    return rule


def _next(first: int, then: int) -> Verdict:
    """The grade of a framing probe answered, whose next request was answered `then`."""
    if then in REFUSALS:
        return "pass", f"answered {first} without using the body, then refused what followed it: {then}"
    if 200 <= then < 300:
        return "bad", f"accepted: answered {first}, then the next request on the connection ({then})"
    return "bad", f"accepted: answered {first}, then {then} to what followed: it framed the body its own way"


def closes(seen: Observation) -> Verdict:
    """Whatever the answer, the connection must close after it (sent with then_next: before the next)."""
    said = f"answered {seen.first.status}" if seen.first else "no answer"
    if len(seen.parsed.finals) > 1 and seen.parsed.finals[1].status not in REFUSALS:
        return "bad", f"{said}, then the next request on the connection ({seen.parsed.finals[1].status})"
    if seen.closed:
        return "pass", f"{said}, closed"
    return "bad", f"{said}, and kept the connection open"


def answered(count: int = 1, close: bool | None = None, body: bytes | None = HELLO) -> Rule:
    """Must be answered: `count` 2xx answers (with `body`), nothing after them, and closed or kept open as
    `close` says (None: either)."""
    def rule(seen: Observation) -> Verdict:
        finals = seen.parsed.finals
        if finals and len(finals) < count and finals[-1].says_close() and seen.closed \
                and all(200 <= r.status < 300 for r in finals):
            # A server may close after any answer that says so; the client sends the rest again (s9.3.2).
            return "pass", f"answered {len(finals)} of {count} with Connection: close, then closed"
        if len(finals) < count:
            got = f"{len(finals)} of {count} answers" if finals else _why_silent(seen)
            return "bad", got + ("" if not finals else f" ({', '.join(str(r.status) for r in finals)})")
        for response in finals[:count]:
            if not 200 <= response.status < 300:
                return "bad", f"answered {response.status}"
            if body is not None and response.body != body:
                return "bad", f"answered {response.status} with body {response.body[:40]!r}, expected {body!r}"
        if len(finals) > count or seen.parsed.rest:
            extra = seen.parsed.rest or b"another answer"
            return "bad", f"sent bytes after the answer: {extra[:40]!r}"
        said = f"answered {finals[0].status}" + (f" x{count}" if count > 1 else "")
        if close is True and not seen.closed:
            return "bad", f"{said} but kept the connection open"
        if close is False and seen.closed:
            return "bad", f"{said} but closed the connection"
        return "pass", said + (", closed" if seen.closed else "")
    return rule


def keep_alive_said(seen: Observation) -> Verdict:
    """HTTP/1.0 with keep-alive: closing is allowed; keeping the connection is, if the answer says so."""
    grade, reason = answered()(seen)
    if grade != "pass" or seen.closed or seen.first.says_keep_alive():
        return grade, reason
    return "bad", "kept an HTTP/1.0 connection open without Connection: keep-alive: its client waits for a close"


def any_answer(seen: Observation) -> Verdict:
    """Must be answered (OPTIONS *): a 2xx passes, another status breaks the SHOULD, none at all fails."""
    first = seen.first
    if first is None:
        return "fail", _why_silent(seen)
    return ("pass", f"answered {first.status}") if 200 <= first.status < 300 else ("bad", f"answered {first.status}")


def continued(seen: Observation) -> Verdict:
    """Expect: 100-continue: a 100 before the body is sent, then the final answer."""
    first = seen.first
    if first is None:
        return "fail", _why_silent(seen)
    if not 200 <= first.status < 300:
        return "bad", f"answered {first.status}"
    if not any(r.status == 100 for r in seen.parsed.interims) or not seen.early:
        return "bad", f"answered {first.status}, but sent no 100 Continue while the client waited for it"
    return "pass", f"100 Continue, then {first.status}"
