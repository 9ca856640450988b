"""What a workload module provides: a contract check and the target a load driver hits."""

from __future__ import annotations

from dataclasses import dataclass, field

from ..assets import Assets
from ..probe import Response, Visitor
from ..services.postgres import Postgres


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


@dataclass(frozen=True)
class Context:
    host: str
    port: int
    path: str
    postgres: Postgres | None
    assets: Assets
    session_store: str = "postgres"
    _visitors: list[Visitor] = field(default_factory=list, compare=False, repr=False)

    def visitor(self, cookies: bool = True) -> Visitor:
        visitor = Visitor(self.host, self.port, cookies=cookies)
        self._visitors.append(visitor)
        return visitor

    def close(self) -> None:
        for visitor in self._visitors:
            visitor.close()


def shown(data: bytes | str, limit: int = 120) -> str:
    text = data if isinstance(data, str) else data.decode("utf-8", errors="replace")
    return repr(text if len(text) <= limit else text[:limit] + "...")


def expect(request: str, response: Response, *, status: int = 200, content_type: str | None = None) -> None:
    if response.status != status:
        raise VerifyError(request, f"status {response.status}, expected {status}; body {shown(response.body)}")
    framed = "content-length" in response.headers or "chunked" in response.headers.get("transfer-encoding", "")
    if not framed:
        raise VerifyError(request, "response has neither Content-Length nor chunked encoding")
    if content_type is not None:
        media = response.content_type.split(";")[0].strip().lower()
        if media != content_type:
            raise VerifyError(request, f"Content-Type {response.content_type!r}, expected {content_type}")


def expect_body(request: str, response: Response, body: bytes) -> None:
    if response.body != body:
        raise VerifyError(request, f"body {shown(response.body)}, expected {shown(body)}")
