"""A real HTTP/1.1 server for unit tests that need one socket's worth of truth: every GET is answered
"Hello, World!", and the connections it was given are counted."""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class Hello(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True
    connections = 0
    lock = threading.Lock()

    def setup(self):
        super().setup()
        with self.lock:
            type(self).connections += 1

    def do_GET(self):  # noqa: N802 - the http.server hook name
        self.send_response(200)
        self.send_header("Content-Length", "13")
        self.end_headers()
        self.wfile.write(b"Hello, World!")

    def log_message(self, *args):
        pass


class Serving:
    """A ThreadingHTTPServer for `handler` on an ephemeral port, shut down on exit whatever happened."""

    def __init__(self, handler=Hello):
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.port = self.server.server_address[1]

    def __enter__(self):
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc):
        self.server.shutdown()
        self.server.server_close()
