"""The harness's own GET is bounded in size and time and never goes through a proxy."""

import socket
import threading
import time

import pytest

from webshootout.system import httpget
from webshootout.workloads import probe


@pytest.fixture
def serve():
    """Starts an in-process server answering every connection with `answer(conn)`; stops it after the test."""
    stop = threading.Event()
    listener = socket.create_server(("127.0.0.1", 0))
    listener.settimeout(0.1)

    def start(answer):
        def loop():
            while not stop.is_set():
                try:
                    conn, _ = listener.accept()
                except OSError:
                    continue
                with conn:
                    conn.recv(65536)
                    try:
                        answer(conn, stop)
                    except OSError:
                        pass
        threading.Thread(target=loop, daemon=True).start()
        return f"http://127.0.0.1:{listener.getsockname()[1]}/ready"

    yield start
    stop.set()
    listener.close()


def _ok(conn, stop):
    conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")


def test_a_plain_answer(serve, monkeypatch):
    monkeypatch.setenv("http_proxy", "http://127.0.0.1:9")  # nobody listens there
    assert httpget.get(serve(_ok), timeout=5) == (200, b"ok")


def test_a_body_over_the_limit_is_refused(serve):
    def flood(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"x" * 65536)

    with pytest.raises(httpget.GetError, match="over 100000 bytes"):
        httpget.get(serve(flood), timeout=5, limit=100_000)


@pytest.mark.parametrize("head, drip", [
    (b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n", b"x"),  # a body one byte at a time
    (b"HTTP/1.1 200 OK\r\n", b"X-A: b\r\n"),  # a head that never ends
])
def test_a_server_that_trickles_is_cut_off_at_the_timeout(serve, head, drip):
    def trickle(conn, stop):
        conn.sendall(head)
        while not stop.is_set():
            conn.sendall(drip)
            time.sleep(0.05)

    started = time.monotonic()
    with pytest.raises(httpget.GetError, match="not complete after 1 s"):
        httpget.get(serve(trickle), timeout=1)
    assert time.monotonic() - started < 1 + 2


def test_nobody_listening_is_an_error_that_names_the_url():
    port = socket.create_server(("127.0.0.1", 0))
    address = port.getsockname()[1]
    port.close()
    with pytest.raises(httpget.GetError, match=f"GET http://127.0.0.1:{address}/x: ConnectionRefusedError"):
        httpget.get(f"http://127.0.0.1:{address}/x", timeout=2)


def test_the_verification_client_is_bounded_the_same_way(serve):
    def trickle(conn, stop):
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n")
        while not stop.is_set():
            conn.sendall(b"x")
            time.sleep(0.05)

    url = serve(trickle)
    visitor = probe.Visitor("127.0.0.1", int(url.split(":")[2].split("/")[0]), timeout=1)
    started = time.monotonic()
    with pytest.raises(httpget.GetError, match="not complete after 1 s"):
        visitor.get("/ready")
    assert time.monotonic() - started < 1 + 2
    visitor.close()
