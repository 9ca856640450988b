"""workloads.keepalive.probe counts the TCP connections a few requests took, against servers that keep
connections alive, close them saying so, or drop them silently; the server counts its accepts as a witness."""

import socket
import ssl
import threading

import pytest

from webshootout.services import certs
from webshootout.workloads import keepalive

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Type: text/plain\r\n%s\r\nok"


class _Server:
    """A raw-socket HTTP server: `mode` "keep" answers every request on a connection, "close" answers one
    with `Connection: close` and closes, "drop" answers one without saying so and closes."""

    def __init__(self, mode: str, tls: ssl.SSLContext | None = None):
        self.mode, self.tls = mode, tls
        self.accepts = 0
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port = self.listener.getsockname()[1]
        self.thread = threading.Thread(target=self._serve, daemon=True)

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.listener.accept()
            except OSError:  # the listener was closed: the test is over
                return
            self.accepts += 1
            try:
                conn = self.tls.wrap_socket(conn, server_side=True) if self.tls else conn
            except (ssl.SSLError, OSError):
                conn.close()
                continue
            with conn:
                self._answer(conn)

    def _answer(self, conn: socket.socket) -> None:
        pending = b""
        while True:
            while b"\r\n\r\n" not in pending:
                chunk = conn.recv(4096)
                if not chunk:
                    return
                pending += chunk
            pending = pending.split(b"\r\n\r\n", 1)[1]
            conn.sendall(ANSWER % (b"Connection: close\r\n" if self.mode == "close" else b""))
            if self.mode != "keep":
                return

    def __enter__(self) -> "_Server":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        # shutdown wakes the accept() blocked in the server thread; close alone does not on Linux.
        try:
            self.listener.shutdown(socket.SHUT_RDWR)
        except OSError:
            pass
        self.listener.close()
        self.thread.join(timeout=5)
        assert not self.thread.is_alive(), "the test server did not stop"


def test_a_server_that_keeps_alive_takes_one_connection():
    with _Server("keep") as server:
        result = keepalive.probe("127.0.0.1", server.port, "/plaintext", requests=5)
    assert result == keepalive.KeepAlive(requests=5, connections=1) and server.accepts == 1
    assert result.kept_alive and result.requests_per_connection == 5


@pytest.mark.parametrize("mode", ["close", "drop"])
def test_a_server_that_closes_after_every_answer_takes_one_connection_per_request(mode):
    with _Server(mode) as server:
        result = keepalive.probe("127.0.0.1", server.port, "/plaintext", requests=5)
    assert result == keepalive.KeepAlive(requests=5, connections=5) and server.accepts == 5
    assert not result.kept_alive and result.requests_per_connection == 1


@pytest.mark.parametrize("mode, connections", [("keep", 1), ("close", 5)])
def test_over_tls_the_connections_are_counted_alike(tmp_path, mode, connections):
    made = certs.make(tmp_path)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(made.cert, made.key)
    with _Server(mode, context) as server:
        result = keepalive.probe("127.0.0.1", server.port, "/plaintext", requests=5, ca=made.ca)
    assert result == keepalive.KeepAlive(requests=5, connections=connections) and server.accepts == connections


def test_no_server_is_an_error_not_a_count():
    with socket.create_server(("127.0.0.1", 0)) as unused:
        port = unused.getsockname()[1]
    with pytest.raises(ConnectionRefusedError):
        keepalive.probe("127.0.0.1", port, "/plaintext")


def test_at_least_one_request():
    with pytest.raises(ValueError, match="requests: expected at least 1, got 0"):
        keepalive.probe("127.0.0.1", 1, "/", requests=0)
