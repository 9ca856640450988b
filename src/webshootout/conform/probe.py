"""A probe as data: its name, family, the RFC's words it tests, the bytes it sends and the rule that grades
the answer. Rules say "pass", "warn", "fail" or "bad": a breach of the rule, which is a fail where the RFC
says MUST and a warn where it says SHOULD."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from .target import Target
from .wire import Limits, Observation, Write, exchange

FAMILIES = ("framing", "limits", "fragmentation", "semantics", "h2", "h2spec")
HTTP2 = ("h2", "h2spec")  # the families run over HTTP/2, where the id serves it

Verdict = tuple[str, str]  # (pass | warn | fail | bad, one line saying why)
Rule = Callable[[Observation], Verdict]


@dataclass(frozen=True)
class Probe:
    name: str  # kebab-case, unique
    family: str
    section: str  # where the requirement is written: "RFC 9112 s6.1"
    level: str  # MUST | SHOULD
    what: str  # what it sends, in words
    writes: Callable[[Target], tuple[Write, ...]]
    rule: Rule
    heads: tuple[bool, ...] = (False,)  # one per request it sends: True for a HEAD
    needs_body: bool = False  # the id must map a workload that reads a request body, else the probe is skipped
    run: Callable[[Target, Limits], Observation] | None = None  # its own exchange (slowloris)
    slow: bool = False  # runs only when asked (--slow): it takes a minute

    def observe(self, target: Target, limits: Limits) -> Observation:
        if self.run is not None:
            return self.run(target, limits)
        return exchange(target, self.writes(target), limits, self.heads)

    def grade(self, seen: Observation) -> Verdict:
        grade, reason = self.rule(seen)
        if grade == "bad":
            grade = "fail" if self.level == "MUST" else "warn"
        return grade, reason


def request(target: Target, *lines: bytes, body: bytes = b"", start: bytes | None = None,
            host: bool = True) -> bytes:
    """A request to the plaintext path (or `start`), Host first unless `host` is False, then `lines`."""
    first = start if start is not None else b"GET " + target.plaintext.encode() + b" HTTP/1.1"
    head = [first, *([b"Host: " + target.authority.encode()] if host else []), *lines]
    return b"".join(line + b"\r\n" for line in head) + b"\r\n" + body


def once(build: Callable[[Target], bytes]) -> Callable[[Target], tuple[Write, ...]]:
    """The writes of a probe that sends its bytes in one write."""
    return lambda target: (Write(build(target)),)


def then_next(build: Callable[[Target], bytes]) -> Callable[[Target], tuple[Write, ...]]:
    """One write of the probe's request followed by a plain GET on the same connection: whether the server
    reads on after a body it cannot frame is what a smuggling pair needs."""
    return lambda target: (Write(build(target) + request(target)),)


NEXT = (False, False)  # the heads of a probe sent with then_next
