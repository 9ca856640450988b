"""A tiny HTTP/1.1 server for the conform probes' tests, run as its own process (so that a flaw which makes
it exit really kills a server): strict by default, and given flaws by name on the command line, each
breaking it in one way a real server does. It prints its port, then serves until killed.

Strict means: what RFC 9110 and 9112 require of a server, and the SHOULDs the probes grade too."""

from __future__ import annotations

import hashlib
import os
import re
import socket
import sys
import threading
import time

FLAWS = frozenset(sys.argv[1:])
HEAD_LIMIT = 64 * 1024
LINE_LIMIT = 8 * 1024
CHUNK_LINE_LIMIT = 4096
BODY_LIMIT = 2 << 20
HEAD_DEADLINE = 2.0  # seconds for a whole head from its first byte
IDLE = 10.0

TOKEN = re.compile(rb"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
CTL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")
HOST = re.compile(rb"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d+)?")
REQUEST_LINE = re.compile(rb"(" + TOKEN.pattern + rb") ([\x21-\x7e]+) HTTP/(\d)\.(\d)")
CHUNK_EXT = rb"(?:[ \t]*;[ \t]*" + TOKEN.pattern + rb"(?:[ \t]*=[ \t]*(?:" + TOKEN.pattern + rb'|"[^"\r\n]*"))?)*'
CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]{1,16})" + CHUNK_EXT)


WEDGED = threading.Event()  # set, the server holds every connection and answers none (wedge-long-line)


class Bad(Exception):
    def __init__(self, status: int):
        super().__init__(status)
        self.status = status


class Closed(Exception):
    pass


def lenient_number(text: bytes, base: int) -> int:
    """What a careless parser makes of a number: a sign and 0x skipped, digits up to the first other byte,
    wrapped at 64 bits, negative as 0."""
    text = text.strip()
    negative = text.startswith(b"-")
    text = text.lstrip(b"+-")
    if text[:2].lower() == b"0x":
        text, base = text[2:], 16
    digits = re.match(rb"[0-9a-fA-F]*" if base == 16 else rb"[0-9]*", text).group()
    return 0 if negative else int(digits or b"0", base) % (1 << 64)


class Connection:
    def __init__(self, sock: socket.socket):
        self.sock, self.buf, self.reads = sock, bytearray(), 0

    def fill(self, deadline: float | None) -> None:
        if "one-read" in FLAWS and self.reads:
            raise Bad(400)  # it reads a request once and parses what came
        timeout = IDLE if deadline is None else deadline - time.monotonic()
        if timeout <= 0:
            raise Bad(408)
        self.sock.settimeout(timeout)
        try:
            chunk = self.sock.recv(65536)
        except socket.timeout:
            raise Bad(408) from None
        except OSError:
            raise Closed from None
        if not chunk:
            raise Closed
        self.buf += chunk
        self.reads += 1

    def head(self) -> bytes:
        self.reads = 1 if self.buf else 0
        while not self.buf:
            try:
                self.fill(None)
            except Bad:  # idle between requests: closed without a word
                raise Closed from None
            self.reads = 1
        deadline = None if "no-header-timeout" in FLAWS else time.monotonic() + HEAD_DEADLINE
        while (end := self.buf.find(b"\r\n\r\n")) < 0:
            limited = not FLAWS & {"no-limits", "crash-long-line", "wedge-long-line"}
            if limited and len(self.buf) > HEAD_LIMIT:
                raise Bad(414 if b"\r\n" not in self.buf[:LINE_LIMIT] else 431)
            self.fill(deadline)
        head = bytes(self.buf[:end])
        del self.buf[:end + 4]
        too_long = any(len(line) > LINE_LIMIT for line in head.split(b"\r\n"))
        if too_long and FLAWS & {"crash-long-line", "wedge-long-line"}:
            if "crash-long-line" in FLAWS:
                os._exit(3)
            WEDGED.set()
        return head

    def exactly(self, size: int) -> bytes:
        while len(self.buf) < size:
            self.fill(time.monotonic() + IDLE)
        data = bytes(self.buf[:size])
        del self.buf[:size]
        return data

    def line(self, limit: int) -> bytes:
        """A chunk or trailer line without its end; a bare LF ends none (but for the flaw that lets it)."""
        while (end := self.buf.find(b"\n")) < 0:
            if len(self.buf) > limit and "no-limits" not in FLAWS:
                raise Bad(400)
            self.fill(time.monotonic() + IDLE)
        if end > limit and "no-limits" not in FLAWS:
            raise Bad(400)
        line = bytes(self.buf[:end])
        del self.buf[:end + 1]
        if line.endswith(b"\r"):
            return line[:-1]
        if "bare-lf-chunk" in FLAWS:
            return line
        raise Bad(400)


class Request:
    def __init__(self, head: bytes):
        lines = re.split(rb"\r\n|\r", head) if "bare-cr" in FLAWS else head.split(b"\r\n")
        self.method, self.target, self.version = self._line(lines[0])
        self.fields = self._fields(lines[1:])

    def _line(self, line: bytes) -> tuple[bytes, bytes, tuple[int, int]]:
        if "lenient-request-line" in FLAWS:
            parts = line.split()
            if len(parts) < 3:
                raise Bad(400)
            return parts[0], parts[1].split(b"#")[0], (1, 0) if parts[-1].upper() == b"HTTP/1.0" else (1, 1)
        match = REQUEST_LINE.fullmatch(line)
        if match is None or b"#" in match.group(2):
            raise Bad(400)
        version = int(match.group(3)), int(match.group(4))
        if version not in ((1, 0), (1, 1)):
            raise Bad(505)
        return match.group(1), match.group(2), version

    def _fields(self, lines: list[bytes]) -> list[tuple[bytes, bytes]]:
        fields: list[tuple[bytes, bytes]] = []
        for line in lines:
            if line[:1] in (b" ", b"\t"):
                if "obs-fold" not in FLAWS or not fields:
                    raise Bad(400)
                fields[-1] = (fields[-1][0], fields[-1][1] + b" " + line.strip())
                continue
            name, colon, value = line.partition(b":")
            if "space-before-colon" in FLAWS:
                name = name.rstrip(b" \t")
            if not colon or not TOKEN.fullmatch(name):
                if "field-grammar" in FLAWS:
                    continue
                raise Bad(400)
            value = value.strip() if "ctl" in FLAWS else value.strip(b" \t")
            if CTL.search(value) and "ctl" not in FLAWS:
                raise Bad(400)
            fields.append((name.lower(), value))
        return fields

    def values(self, name: bytes) -> list[bytes]:
        return [v for n, v in self.fields if n == name]

    def tokens(self, name: bytes) -> list[bytes]:
        return [t.strip().lower() for v in self.values(name) for t in v.split(b",")]

    def check_host(self) -> None:
        if "host" in FLAWS:
            return
        hosts = self.values(b"host")
        required = self.version == (1, 1) or "http10-host" in FLAWS
        if len(hosts) > 1 or (required and not hosts) or any(not HOST.fullmatch(h) for h in hosts):
            raise Bad(400)


def body_framing(request: Request) -> tuple[str, int]:
    """("chunked", 0), ("length", n) or ("none", 0); Bad for what must be refused."""
    te, cl = request.values(b"transfer-encoding"), request.values(b"content-length")
    if te and "lenient-te" in FLAWS:
        return ("chunked", 0) if b"chunked" in b",".join(te).lower() else ("none", 0)
    if te:
        if request.version == (1, 0) and "te-http10" not in FLAWS:
            raise Bad(400)
        if cl and "cl-te" not in FLAWS:
            raise Bad(400)
        codings = [c.strip().lower() for v in (te[:1] if "te-first-line" in FLAWS else te) for c in v.split(b",")]
        if codings[-1] != b"chunked" or codings.count(b"chunked") > 1:
            raise Bad(400)
        if len(codings) > 1:
            raise Bad(501)
        return "chunked", 0
    if not cl:
        return "none", 0
    if "lenient-cl" in FLAWS:
        return "length", lenient_number(cl[0], 10)
    parts = [p.strip() for v in cl for p in v.split(b",")]
    if "first-cl" in FLAWS:
        parts = parts[:1]
    if any(not re.fullmatch(rb"\d{1,15}", p) for p in parts) or len(set(parts)) > 1:
        raise Bad(400)
    if int(parts[0]) > BODY_LIMIT:
        raise Bad(413)
    return "length", int(parts[0])


def chunked_body(conn: Connection) -> bytes:
    body = bytearray()
    while True:
        line = conn.line(CHUNK_LINE_LIMIT)
        if "lenient-chunk-size" in FLAWS:
            size = lenient_number(line.split(b";")[0], 16)
        elif "chunk-ext" in FLAWS:
            if not re.fullmatch(rb"[0-9A-Fa-f]{1,16}", line.split(b";")[0]):
                raise Bad(400)
            size = int(line.split(b";")[0], 16)
        else:
            match = CHUNK_LINE.fullmatch(line)
            if match is None:
                raise Bad(400)
            size = int(match.group(1), 16)
        if size == 0:
            while conn.line(CHUNK_LINE_LIMIT):  # trailer fields, up to the blank line
                pass
            return bytes(body)
        if len(body) + size > BODY_LIMIT:
            raise Bad(413)
        body += conn.exactly(size)
        if "chunk-overrun" in FLAWS:
            conn.line(CHUNK_LINE_LIMIT)
            continue
        end = conn.exactly(1)
        if end == b"\n" and "bare-lf-chunk" in FLAWS:
            continue
        if end != b"\r" or conn.exactly(1) != b"\n":
            raise Bad(400)


def answer(conn: Connection, status: int, body: bytes = b"", *, head: bool = False, close: bool = False,
           extra: tuple[bytes, ...] = ()) -> None:
    lines = [b"HTTP/1.1 %d X" % status, b"Content-Length: %d" % len(body), b"Content-Type: text/plain", *extra]
    if close:
        lines.append(b"Connection: close")
    send_body = not head or "head-body" in FLAWS
    conn.sock.sendall(b"".join(line + b"\r\n" for line in lines) + b"\r\n" + (body if send_body else b""))


def route(request: Request, body: bytes) -> tuple[int, bytes, tuple[bytes, ...]]:
    target = request.target
    if target == b"*":
        if request.method != b"OPTIONS" or "options-star" in FLAWS:
            return 400, b"", ()
        return 200, b"", (b"Allow: GET, HEAD, POST, OPTIONS",)
    absolute = re.fullmatch(rb"http://[^/?#]+(/[^#]*)?", target)
    if absolute and "absolute-form" not in FLAWS:
        target = absolute.group(1) or b"/"
    path = target.split(b"?")[0]
    if path == b"/plaintext" and request.method in (b"GET", b"HEAD"):
        return 200, b"Hello, World!", ()
    if path == b"/upload" and request.method == b"POST":
        return 200, b"%d %s" % (len(body), hashlib.sha256(body).hexdigest().encode()), ()
    return 404, b"", ()


def persistence(request: Request) -> tuple[bool, tuple[bytes, ...]]:
    """Whether the connection stays open after the answer, and what the answer says about it."""
    options = request.tokens(b"connection")
    if request.version == (1, 0):
        if "http10-keep" in FLAWS:
            return True, ()
        return (True, (b"Connection: keep-alive",)) if b"keep-alive" in options else (False, ())
    return b"close" not in options or "ignore-close" in FLAWS, ()


def one(conn: Connection) -> bool:
    """Serves one request; False when the connection is to close."""
    request = Request(conn.head())
    request.check_host()
    framing, length = body_framing(request)
    if (framing == "chunked" or length) and request.version == (1, 1) and "no-100" not in FLAWS \
            and b"100-continue" in request.tokens(b"expect"):
        conn.sock.sendall(b"HTTP/1.1 100 Continue\r\n\r\n")
    keep, said = persistence(request)
    if "lazy-body" in FLAWS and request.method == b"GET":
        # Not a flaw: the way of Go's net/http, answering before the handler reads a body it ignores, then
        # reading the body to find the next request and closing if it cannot be framed.
        status, content, extra = route(request, b"")
        answer(conn, status, content, close=not keep, extra=extra + said)
        try:
            chunked_body(conn) if framing == "chunked" else conn.exactly(length)
        except Bad:
            raise Closed from None
        return keep
    body = chunked_body(conn) if framing == "chunked" else conn.exactly(length)
    status, content, extra = route(request, body)
    answer(conn, status, content, head=request.method == b"HEAD", close=not keep, extra=extra + said)
    if "no-pipeline" in FLAWS:
        conn.buf.clear()
    return keep


def serve(sock: socket.socket) -> None:
    if WEDGED.is_set():
        time.sleep(3600)
    conn = Connection(sock)
    try:
        while one(conn):
            pass
    except Bad as exc:
        try:
            answer(conn, exc.status, close=True)
        except OSError:
            pass
    except (Closed, OSError):
        pass
    finally:
        sock.close()


def main() -> None:
    listener = socket.create_server(("127.0.0.1", 0))
    print(listener.getsockname()[1], flush=True)
    while True:
        client, _ = listener.accept()
        threading.Thread(target=serve, args=(client,), daemon=True).start()


if __name__ == "__main__":
    main()
