"""The async workload's check against real servers: waits at once (passes), waits in turn or never (refused)."""

import importlib
import threading
import time
from http.server import BaseHTTPRequestHandler, HTTPServer, ThreadingHTTPServer

import pytest

from webshootout.workloads import Context, VerifyError

workload = importlib.import_module("webshootout.workloads.async")  # a keyword: no `import` statement names it


def handler(wait_s: float, keep_alive: bool = True):
    class Waiting(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1" if keep_alive else "HTTP/1.0"

        def do_GET(self):  # noqa: N802 - the http.server hook name
            time.sleep(wait_s)
            self.send_response(200)
            self.send_header("Content-Type", "text/plain; charset=utf-8")
            self.send_header("Content-Length", "13")
            self.end_headers()
            self.wfile.write(b"Hello, World!")

        def log_message(self, *args):
            pass

    return Waiting


class OneThread(HTTPServer):
    request_queue_size = 128  # a production server's listen backlog, not http.server's 5


class Threads(ThreadingHTTPServer):
    request_queue_size = 128
    daemon_threads = True


def check(server_class, wait_s: float) -> None:
    # A one-thread server closes each connection, or its first kept-alive client would hold it.
    server = server_class(("127.0.0.1", 0), handler(wait_s, keep_alive=server_class is Threads))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        ctx = Context("127.0.0.1", server.server_address[1], "/async", None, None)
        try:
            workload.verify(ctx)
        finally:
            ctx.close()
    finally:
        server.shutdown()
        server.server_close()


def test_waits_that_run_at_once_pass():
    check(Threads, workload.WAIT_MS / 1000)


def test_a_sleep_that_blocks_the_only_worker_is_refused():
    with pytest.raises(VerifyError, match="one after another"):
        check(OneThread, workload.WAIT_MS / 1000)


def test_an_answer_that_did_not_wait_is_refused():
    with pytest.raises(VerifyError, match="must wait 15 ms"):
        check(Threads, 0.0)
