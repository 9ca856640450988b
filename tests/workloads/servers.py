"""Tiny HTTP/1.1 servers for the checks' tests: each does one workload right, or wrong in one named way."""

from __future__ import annotations

import gzip
import hashlib
import json
import ssl
import threading
from contextlib import contextmanager
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator
from urllib.parse import parse_qs, urlparse

import brotli

from webshootout.services import certs
from webshootout.workloads import Context
from webshootout.workloads.probe import Link

UPLOAD_LIMIT = 2 << 20


class Quiet(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self, status: int, body: bytes, content_type: str, **headers: str) -> None:
        self.send_response_only(status)
        self.send_header("Server", "test")
        self.send_header("Date", formatdate(usegmt=True))
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers.items():
            self.send_header(name.replace("_", "-"), value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


class Threads(ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


def compressing(fault: str | None = None):
    """json-comp's contract, or (with `fault`) wrong in the one way it names."""

    class Compressing(Quiet):
        def do_GET(self):  # noqa: N802 - the http.server hook name
            n = int(parse_qs(urlparse(self.path).query)["n"][0])
            items = [{"id": i, "message": "Hello, World!"} for i in range(1, n + 1)]
            if fault == "wrong ids":
                items[-1]["id"] = 0
            body = json.dumps(items).encode()
            accept = self.headers.get("Accept-Encoding", "")
            extra = {}
            if fault == "gzip for br" and "br" in accept:
                accept = "gzip"
            if "gzip" in accept and fault != "uncompressed":
                body, extra = gzip.compress(body), {"Content_Encoding": "gzip", "Vary": "Accept-Encoding"}
                if fault == "no vary":
                    del extra["Vary"]
                if fault == "not gzip":
                    body = b"\x1f\x8b" + body[2:][::-1]
            elif "br" in accept:
                body, extra = brotli.compress(body), {"Content_Encoding": "br", "Vary": "Accept-Encoding"}
            elif fault == "always gzip":
                body, extra = gzip.compress(body), {"Content_Encoding": "gzip", "Vary": "Accept-Encoding"}
            self.answer(200, body, "application/json", **extra)

    return Compressing


def hashing(fault: str | None = None):
    """upload's and upload-chunked's contract with a 2 MiB limit, or (with `fault`) wrong in the one way it names."""

    class Hashing(Quiet):
        def do_POST(self):  # noqa: N802 - the http.server hook name
            if "chunked" in self.headers.get("Transfer-Encoding", ""):
                body = self.chunks()
            else:
                length = int(self.headers.get("Content-Length", "0"))
                if length > UPLOAD_LIMIT and fault != "no limit":
                    self.close_connection = True
                    return self.answer(413, b"too large", "text/plain; charset=utf-8", Connection="close")
                body = self.rfile.read(length) if fault != "first read" else self.rfile.read1(length)
                if fault == "first read":
                    self.close_connection = True
            if body is None:
                return
            digest = hashlib.sha256(body).hexdigest()
            self.answer(200, f"{len(body)} {digest}".encode(), "text/plain; charset=utf-8")

        def chunks(self) -> bytes | None:
            parts, total = [], 0
            while size := int(self.rfile.readline().split(b";")[0], 16):
                total += size
                if total > UPLOAD_LIMIT and fault != "no limit":
                    self.close_connection = True
                    self.answer(413, b"too large", "text/plain; charset=utf-8", Connection="close")
                    return None
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()
            return parts[0] if fault == "first chunk" else b"".join(parts)

    return Hashing


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], path: str, tls: certs.Certs | None = None) -> Iterator[Context]:
    """A Context for `path` on a server of `handler` (over TLS with `tls`), stopped (and its check's connections
    closed) at the end."""
    server = Threads(("127.0.0.1", 0), handler)
    link = Link()
    if tls is not None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(tls.cert, tls.key)
        server.socket = context.wrap_socket(server.socket, server_side=True)
        link = Link(ca=tls.ca)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ctx = Context("127.0.0.1", server.server_address[1], path, None, None, link=link)
    try:
        yield ctx
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()
