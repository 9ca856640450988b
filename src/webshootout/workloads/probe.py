"""A small HTTP/1.1 client for verification: one keep-alive connection, a cookie jar of its own."""

from __future__ import annotations

import http.client
from dataclasses import dataclass
from http.cookies import CookieError, SimpleCookie

from ..system import httpget

# Every answer of the contract is small; a server that streams more is cut off, not read forever.
BODY_LIMIT = 8 << 20


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

    def __init__(self, host: str, port: int, timeout: float = 10.0, cookies: bool = True):
        self.host, self.port, self.timeout = host, port, timeout
        self.keep_cookies = cookies
        self.cookies: dict[str, str] = {}
        self._conn: http.client.HTTPConnection | None = None

    def get(self, path: str) -> Response:
        headers = {}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        for attempt in (1, 2):
            conn = self._conn or http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._conn = conn
            try:
                with httpget.deadline(conn, self.timeout):
                    conn.request("GET", path, headers=headers)
                    raw = conn.getresponse()
                    body = raw.read(BODY_LIMIT + 1)
                if len(body) > BODY_LIMIT:
                    self.close()
                    raise http.client.HTTPException(f"GET {path}: the body is over {BODY_LIMIT} bytes")
                break
            except (http.client.RemoteDisconnected, ConnectionResetError, BrokenPipeError):
                # A server may close an idle keep-alive connection; one fresh attempt is fair.
                self.close()
                if attempt == 2:
                    raise
        set_cookies = tuple(raw.headers.get_all("Set-Cookie") or ())
        if self.keep_cookies:
            for line in set_cookies:
                try:
                    jar = SimpleCookie(line)
                except CookieError:
                    continue
                for name, morsel in jar.items():
                    self.cookies[name] = morsel.value
        headers_out: dict[str, str] = {}
        for name, value in raw.headers.items():
            key = name.lower()
            headers_out[key] = f"{headers_out[key]}, {value}" if key in headers_out else value
        if raw.will_close:
            self.close()
        return Response(raw.status, headers_out, set_cookies, body)

    def close(self) -> None:
        if self._conn is not None:
            self._conn.close()
            self._conn = None
