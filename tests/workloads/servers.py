"""Tiny HTTP/1.1 servers for the checks' tests: each does one workload right, or wrong in one named way."""

from __future__ import annotations

import threading
from contextlib import contextmanager
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator

from webshootout.workloads import Context


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


@contextmanager
def serving(handler: type[BaseHTTPRequestHandler], path: str) -> Iterator[Context]:
    """A Context for `path` on a server of `handler`, stopped (and its check's connections closed) at the end."""
    server = Threads(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    ctx = Context("127.0.0.1", server.server_address[1], path, None, None)
    try:
        yield ctx
    finally:
        ctx.close()
        server.shutdown()
        server.server_close()
