"""What a workload module provides: a contract check and the target a load driver hits."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Protocol

from .probe import Link, Response, Visitor, framed
from .headers import DATE_TICK, content_type_matches, server_and_date


@dataclass(frozen=True)
class Statements:
    """What the database executed on one table since its last reset."""

    selects: int
    rows_read: int
    updates: int
    rows_updated: int


class Database(Protocol):
    """What a check asks of the run's PostgreSQL (services/postgres.py's Cluster is one)."""

    def reset(self) -> None: ...

    def query(self, sql: str, params: tuple = ()) -> list[tuple]: ...

    def calls_touching(self, table: str) -> int: ...

    def statements_on(self, table: str) -> Statements: ...


class Files(Protocol):
    """The files the harness serves (services/assets.py's Assets is one)."""

    hash_file: Path
    static_dir: Path

    @property
    def index_html(self) -> Path: ...

    def rewrite_hash_file(self) -> None: ...


class VerifyError(AssertionError):
    """A contract violation: which request, and what differed."""

    def __init__(self, request: str, difference: str):
        super().__init__(f"{request}: {difference}")
        self.request = request
        self.difference = difference


@dataclass(frozen=True)
class Target:
    """One load point's request and what every response must look like."""

    path: str  # path and query
    expect_status: int = 200
    expect_body: str | None = None
    expect_body_regex: str | None = None
    sessions: bool = False  # a cookie jar per connection
    expect_counter: bool = False  # "Count is N" rising by one per visitor
    websocket_message: str | None = None
    method: str = "GET"
    headers: tuple[str, ...] = ()  # "Name: value" lines every request carries
    body_bytes: int | None = None  # a body of this many bytes of upload.pattern (shootout-load's --body-size)
    chunk_bytes: int | None = None  # that body sent chunked, in chunks of this size
    expect_encoding: str | None = None  # every answer's Content-Encoding; the body checks apply to it decoded
    mix: str | None = None  # shootout-load's --mix (JSON): requests of several kinds, each checked as its own
    grpc: str | None = None  # shootout-load's --grpc (JSON): gRPC calls and the exact messages each must answer


@dataclass(frozen=True)
class Answer:
    """The first answer a check received, kept to prove its Date changes with time."""

    at: float  # time.monotonic() when it arrived
    method: str
    path: str
    body: bytes | None
    response: Response


class CheckedVisitor(Visitor):
    """A Visitor that refuses any answer without a Server header and a current Date."""

    def __init__(self, answers: list[Answer], *args, **kwargs):
        super().__init__(*args, **kwargs)  # Visitor's
        self._answers = answers

    def request(self, method: str, path: str, headers=None, body: bytes | None = None) -> Response:
        response = super().request(method, path, headers, body)
        problem = server_and_date(response)
        if problem:
            raise VerifyError(f"{method} {path}", problem)
        if not self._answers:
            self._answers.append(Answer(time.monotonic(), method, path, body, response))
        return response


def _no_rules(first: Response, later: Response) -> None:
    pass


@dataclass(frozen=True)
class Context:
    host: str
    port: int
    path: str
    postgres: Database | None
    assets: Files
    session_store: str = "postgres"
    updates_style: str | None = None  # the manifest's fairness.updates: "per-row" or "batched"
    link: Link = Link()  # how its visitors reach the server (cleartext HTTP/1.1 unless told otherwise)
    _visitors: list[Visitor] = field(default_factory=list, compare=False, repr=False)
    _answers: list[Answer] = field(default_factory=list, compare=False, repr=False)
    _later: list[Callable[[Response, Response], None]] = field(default_factory=list, compare=False, repr=False)

    def visitor(self, cookies: bool = True, timeout: float = 10.0) -> Visitor:
        visitor = CheckedVisitor(self._answers, self.host, self.port, timeout=timeout, cookies=cookies,
                                 link=self.link)
        self._visitors.append(visitor)
        return visitor

    def expect_date_changes(self) -> tuple[Response, Response]:
        """The check's first answer and a new one to the same request at least DATE_TICK seconds later,
        whose Date must differ: a Date computed once, or held for more than two ticks, fails. A Date that
        has not moved gets one more tick: servers that refresh it from a timer (ntex's every 500 ms) miss
        a tick when a busy machine runs the timer late, and a frozen Date is still frozen a tick later."""
        first = self._answers[0]
        before, later = first.response.headers["date"], first.response
        for tick in (1, 2):
            time.sleep(max(0.0, first.at + tick * DATE_TICK - time.monotonic()))
            later = self.visitor(cookies=False).request(first.method, first.path, body=first.body)
            if later.headers["date"] != before:
                return first.response, later
        raise VerifyError(f"GET {first.path}, three times {DATE_TICK} s apart",
                          f"Date header {before!r} did not change (it must be current, to the second)")

    def after_a_tick(self, rules: Callable[[Response, Response], None] = _no_rules) -> None:
        """The Date check of expect_date_changes, then `rules` on its two answers, run by finish(): the checks of
        every workload of one server run first and then share a single wait of DATE_TICK."""
        self._later.append(rules)

    def finish(self) -> None:
        """What after_a_tick deferred."""
        for rules in self._later:
            rules(*self.expect_date_changes())

    def close(self) -> None:
        for visitor in self._visitors:
            visitor.close()


def shown(data: bytes | str, limit: int = 120) -> str:
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def expect(request: str, response: Response, *, status: int = 200, content_type: str | None = None) -> None:
    if response.status != status:
        raise VerifyError(request, f"status {response.status}, expected {status}; body {shown(response.body)}")
    if not framed(response.headers):
        raise VerifyError(request, "response has neither Content-Length nor chunked encoding")
    if content_type is not None and not content_type_matches(response.content_type, content_type):
        anything = "" if ";" in content_type else " (parameters such as a charset allowed)"
        raise VerifyError(request, f"Content-Type header {response.content_type!r}, expected {content_type!r}"
                                   f"{anything}")


def expect_body(request: str, response: Response, body: bytes) -> None:
    if response.body != body:
        raise VerifyError(request, f"body {shown(response.body)}, expected {shown(body)}")
