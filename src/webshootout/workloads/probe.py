"""A small HTTP client for verification: one keep-alive connection, a cookie jar of its own; HTTP/1.1 in
cleartext or over TLS here, HTTP/2 through probe_h2."""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping

from ..system import httpget
from . import probe_h2

# Every answer of the contract is small; a server that streams more is cut off, not read forever.
BODY_LIMIT = 8 << 20


@dataclass(frozen=True)
class Link:
    """How the client reaches a server: cleartext HTTP/1.1 unless told otherwise."""

    ca: Path | None = None  # TLS, verified against this PEM CA (the run's throwaway one)
    http2: bool = False  # HTTP/2: offered alone by ALPN over TLS, with prior knowledge (h2c) in cleartext

    @property
    def name(self) -> str:
        """As catalog.Transport.serves names it: "h1", "h1+tls", "h2+tls" or "h2c"."""
        if self.http2:
            return "h2+tls" if self.ca else "h2c"
        return "h1+tls" if self.ca else "h1"

    @property
    def scheme(self) -> str:
        return "https" if self.ca else "http"


def framed(headers: Mapping[str, str]) -> bool:
    """Whether an answer says where its body ends: HTTP/1.1 by Content-Length or chunked encoding; HTTP/2 (its
    headers hold the :status pseudo-header, which the HTTP/2 client keeps) by its stream's END_STREAM flag."""
    return ("content-length" in headers or "chunked" in headers.get("transfer-encoding", "")
            or ":status" in headers)


@dataclass(frozen=True)
class Response:
    status: int
    headers: dict[str, str]  # lower-case names; repeated headers joined with ", "
    set_cookies: tuple[str, ...]
    body: bytes

    @property
    def content_type(self) -> str:
        return self.headers.get("content-type", "")

    @property
    def text(self) -> str:
        return self.body.decode("utf-8", errors="replace")


class Visitor:
    """A browser-like client: keeps its cookies, reuses its connection. Straight to the server (no proxy from
    the environment), each request done within `timeout` in all, bodies at most BODY_LIMIT bytes."""

    def __init__(self, host: str, port: int, timeout: float = 10.0, cookies: bool = True, link: Link = Link()):
        self.host, self.port, self.timeout, self.link = host, port, timeout, link
        self.keep_cookies = cookies
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None
        self._h2 = None  # probe_h2.Client, once an HTTP/2 link has connected

    def get(self, path: str, headers: Mapping[str, str] | None = None) -> Response:
        return self.request("GET", path, headers)

    def request(self, method: str, path: str, headers: Mapping[str, str] | None = None,
                body: bytes | None = None) -> Response:
        """One request; its body, if any, framed by Content-Length. HTTP/2 carries GETs only."""
        headers = dict(headers or {})
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        if self.link.http2:
            if method != "GET":
                raise ValueError(f"{method} {path}: the HTTP/2 probe sends GETs only")
            return self._keep_cookies(self._get_h2(path, headers))
        for attempt in (1, 2):
            conn = self._conn or self._connection()
            self._conn = conn
            try:
                with httpget.deadline(conn, self.timeout):
                    conn.request(method, path, body=body, headers=headers)
                    raw = conn.getresponse()
                    body_read = raw.read(BODY_LIMIT + 1)
                if len(body_read) > BODY_LIMIT:
                    self.close()
                    raise http.client.HTTPException(f"{method} {path}: the body is over {BODY_LIMIT} bytes")
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A server may close an idle keep-alive connection; one fresh attempt is fair.
                self.close()
                if attempt == 2:
                    raise
        set_cookies = tuple(raw.headers.get_all("Set-Cookie") or ())
        if raw.will_close:
            self.close()
        return self._keep_cookies(Response(raw.status, joined(raw.headers.items()), set_cookies, body_read))

    def _connection(self) -> http.client.HTTPConnection:
        if self.link.ca is None:
            return http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        return http.client.HTTPSConnection(self.host, self.port, timeout=self.timeout,
                                           context=httpget.tls_context(self.link.ca))

    def _get_h2(self, path: str, headers: dict[str, str]) -> Response:
        if self._h2 is None:
            self._h2 = probe_h2.Client(self.host, self.port, self.timeout, self.link.ca)
        try:
            status, pairs, body = self._h2.get(path, headers, BODY_LIMIT)
        except BaseException:
            self.close()  # a connection left mid-exchange is not used again
            raise
        return h2_response(status, pairs, body)

    def _keep_cookies(self, response: Response) -> Response:
        if self.keep_cookies:
            for line in response.set_cookies:
                # As a browser reads it (RFC 6265, 5.2): the pair before the first ";", its value kept as sent
                # (quotes included); the attributes, known or not (Ktor's "$x-enc"), take no part.
                name, equals, value = line.split(";", 1)[0].partition("=")
                if equals and name.strip():
                    self.cookies[name.strip()] = value.strip()
        return response

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
        if self._h2 is not None:
            self._h2.close()
            self._h2 = None


def h2_response(status: int, pairs: list[tuple[str, str]], body: bytes) -> Response:
    """An HTTP/2 answer as a Response; its headers keep the :status pseudo-header (see framed)."""
    return Response(status, joined(pairs), tuple(v for n, v in pairs if n == "set-cookie"), body)


def joined(headers) -> dict[str, str]:
    """(name, value) pairs as Response.headers holds them: lower-case names, repeats joined with ", "."""
    found: dict[str, str] = {}
    for name, value in headers:
        key = name.lower()
        found[key] = f"{found[key]}, {value}" if key in found else value
    return found
