"""Running probes against one server: each probe's exchange, then whether the server still lives and still
answers a plain request on a new connection. A server that died or stopped answering is the finding (fail)
and is restarted before the next probe, so that the probes after it are graded on a fresh one."""

from __future__ import annotations

import time
from dataclasses import dataclass, replace
from typing import Protocol

from . import h2talk
from .probe import HTTP2, Probe, request
from .target import HELLO, Target
from .wire import Limits, Observation, Write, exchange


DEATH_GRACE = 0.1


class Subject(Protocol):
    """The server under test, as the harness (or a test) holds it."""

    def target(self) -> Target: ...

    def alive(self) -> bool: ...

    def restart(self) -> None: ...


@dataclass(frozen=True)
class Finding:
    probe: str
    family: str
    level: str
    grade: str  # pass | warn | fail | skip
    reason: str
    status: int | None = None  # the first final answer's status
    closed: bool = False
    seconds: float | None = None  # from the last write to the first answer byte or the close
    alive: bool = True
    serving: bool = True  # a plain GET on a new connection was answered after it

    def as_json(self) -> dict:
        return {"probe": self.probe, "family": self.family, "level": self.level, "grade": self.grade,
                "reason": self.reason, "status": self.status, "closed": self.closed,
                "seconds": None if self.seconds is None else round(self.seconds, 4), "alive": self.alive,
                "serving": self.serving}


def _finding(probe: Probe, seen: Observation, alive: bool, serving: bool) -> Finding:
    if not alive:
        grade, reason = "fail", "the server died on it"
    elif not serving:
        grade, reason = "fail", "the server stopped answering: a plain GET on a new connection got no answer after it"
    else:
        grade, reason = probe.grade(seen)
    first = seen.first
    return Finding(probe.name, probe.family, probe.level, grade, reason, first.status if first else None,
                   seen.closed, seen.seconds, alive, alive and serving)


def _serves(target: Target, limits: Limits, http2: bool) -> bool:
    """Whether a plain GET on a new connection (over HTTP/2 after an HTTP/2 probe) is answered, asked twice
    before the answer is no."""
    at_once = replace(limits, linger=0.0)  # the answer is all it asks for, not what follows it
    for _ in range(2):
        try:
            first = (h2talk.get(target, at_once) if http2 else exchange(target, (Write(request(target)),),
                                                                               at_once)).first
        except OSError:
            first = None
        if first is not None and first.status == 200 and first.body == HELLO:
            return True
    return False


def _alive(subject: Subject, seen: Observation) -> bool:
    """Whether the server lives. A connection closed without an answer may be the server's exit, which the
    process handle sees a moment after the socket does: it is asked again for up to DEATH_GRACE seconds."""
    end = time.monotonic() + (DEATH_GRACE if seen.closed and not seen.parsed.finals else 0)
    while (alive := subject.alive()) and time.monotonic() < end:
        time.sleep(0.01)
    return alive


def probe_once(probe: Probe, subject: Subject, limits: Limits) -> tuple[Finding, Observation | None]:
    """One probe's finding and what was seen (None when skipped); a server that died is restarted."""
    target = subject.target()
    if probe.needs_body and target.upload is None:
        return Finding(probe.name, probe.family, probe.level, "skip", "the id maps no workload that reads a body"), None
    try:
        seen = probe.observe(target, limits)
    except OSError as exc:  # refused at connect: the server is gone or no longer accepts
        seen = Observation(note=f"could not connect: {exc}")
    alive = _alive(subject, seen)
    serving = alive and _serves(target, limits, probe.family in HTTP2)
    finding = _finding(probe, seen, alive, serving)
    if not serving:
        subject.restart()
    return finding, seen
