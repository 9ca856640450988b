"""Running probes against one server: each probe's exchange, then whether the server still lives. A server
that died is the finding (fail) and is restarted before the next probe."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Protocol

from .probe import Probe
from .target import Target
from .wire import Limits, Observation


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

    def as_json(self) -> dict:
        return {"probe": self.probe, "family": self.family, "level": self.level, "grade": self.grade,
                "reason": self.reason, "status": self.status, "closed": self.closed,
                "seconds": None if self.seconds is None else round(self.seconds, 4), "alive": self.alive}


def _finding(probe: Probe, seen: Observation, alive: bool) -> Finding:
    if alive:
        grade, reason = probe.grade(seen)
    else:
        grade, reason = "fail", "the server died on it"
    first = seen.first
    return Finding(probe.name, probe.family, probe.level, grade, reason, first.status if first else None,
                   seen.closed, seen.seconds, alive)


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
    if probe.needs and target.path(probe.needs) is None:
        return Finding(probe.name, probe.family, probe.level, "skip", f"the id maps no {probe.needs}"), None
    try:
        seen = probe.observe(target, limits)
    except OSError as exc:  # refused at connect: the server is gone or no longer accepts
        seen = Observation(note=f"could not connect: {exc}")
    alive = _alive(subject, seen)
    finding = _finding(probe, seen, alive)
    if not alive:
        subject.restart()
    return finding, seen
