"""httpget over TLS: what the readiness poll and settle use for a server started with TLS_CERT and TLS_KEY."""

import ssl
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from webshootout.services import certs
from webshootout.system import httpget


class _Ok(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def log_message(self, *args):
        pass


@pytest.fixture
def tls_server(tmp_path):
    made = certs.make(tmp_path / "tls")
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Ok)
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(made.cert, made.key)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"https://127.0.0.1:{server.server_address[1]}/ready", made
    server.shutdown()
    server.server_close()
    thread.join(5)


def test_get_over_https_trusts_the_runs_ca(tls_server):
    url, made = tls_server
    assert httpget.get(url, 5, ca=made.ca) == (200, b"ok")


def test_get_over_https_refuses_a_server_the_ca_did_not_sign(tls_server, tmp_path):
    url, _ = tls_server
    with pytest.raises(httpget.GetError, match="CERTIFICATE_VERIFY_FAILED"):
        httpget.get(url, 5, ca=certs.make(tmp_path / "other").ca)
