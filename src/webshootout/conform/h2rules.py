"""The grading rules of the HTTP/2 probes, each a function of an H2Seen (probe.py says what "bad" becomes)."""

from __future__ import annotations

from .h2frames import ENHANCE_YOUR_CALM, PROTOCOL_ERROR, error_name
from .h2talk import STREAM, H2Seen
from .probe import Rule, Verdict
from .target import HELLO
from .wire import Observation


def _silent(seen: H2Seen) -> str:
    if seen.note:
        return seen.note
    return "neither answered nor reset it, no GOAWAY, no close" if seen.timed_out else "no answer"


def connection_error(*codes: int) -> Rule:
    """A connection error of one of `codes` (RFC 9113 s5.4.1): a GOAWAY with it; a close without GOAWAY
    breaks the SHOULD, a GOAWAY with another code is neither right nor wrong enough; answering the request
    sent after the bad frame, or waiting, breaks the MUST."""
    due = " or ".join(error_name(c) for c in codes)

    def rule(seen: Observation) -> Verdict:
        assert isinstance(seen, H2Seen)
        if seen.goaway in codes:
            return "pass", f"GOAWAY {error_name(seen.goaway)}"
        if seen.goaway is not None:
            return "warn", f"GOAWAY {error_name(seen.goaway)} where {due} is due"
        if seen.closed:
            return "warn", f"closed without a GOAWAY ({due} is due)"
        if STREAM in seen.statuses:
            return "bad", f"no connection error: answered {seen.statuses[STREAM]} to the request after it"
        if STREAM in seen.resets:
            return "bad", f"reset the stream after it ({error_name(seen.resets[STREAM])}) where a connection error is due"
        return "bad", f"no connection error: {_silent(seen)}"
    return rule


def malformed(seen: Observation) -> Verdict:
    """A malformed request (RFC 9113 s8.1.1): a stream error PROTOCOL_ERROR (RST_STREAM), a connection error
    of that type, a 4xx or a close; never a 2xx."""
    assert isinstance(seen, H2Seen)
    reset, status = seen.resets.get(STREAM), seen.statuses.get(STREAM)
    if reset == PROTOCOL_ERROR:
        return "pass", "RST_STREAM PROTOCOL_ERROR"
    if seen.goaway == PROTOCOL_ERROR:
        return "pass", "GOAWAY PROTOCOL_ERROR (as a connection error)"
    if status is not None and 400 <= status < 500:
        return "pass", f"refused: {status}"
    if status is not None and 200 <= status < 300:
        return "bad", f"accepted: answered {status}"
    if status is not None:
        return "warn", f"answered {status}: neither a refusal nor a success"
    if reset is not None or seen.goaway is not None:
        said = f"RST_STREAM {error_name(reset)}" if reset is not None else f"GOAWAY {error_name(seen.goaway)}"
        return "warn", f"{said} where PROTOCOL_ERROR is due"
    if seen.closed:
        return "pass", "closed without an answer"
    return "bad", _silent(seen)


def answered(seen: Observation) -> Verdict:
    """Must be answered 200 with the plaintext body."""
    assert isinstance(seen, H2Seen)
    first = seen.first
    if first is None and seen.goaway == ENHANCE_YOUR_CALM:
        return "warn", "GOAWAY ENHANCE_YOUR_CALM: it took a valid request for an attack"
    if first is None:
        reset = seen.resets.get(STREAM)
        why = f"RST_STREAM {error_name(reset)}" if reset is not None else \
            f"GOAWAY {error_name(seen.goaway)}" if seen.goaway is not None else \
            "closed without an answer" if seen.closed else _silent(seen)
        return "bad", why
    if first.status != 200 or first.body != HELLO:
        return "bad", f"answered {first.status} with body {first.body[:40]!r}, expected {HELLO!r}"
    return "pass", "answered 200"
