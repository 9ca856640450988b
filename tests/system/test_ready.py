"""system/ready.py: a ready path's GET, or the HTTP/2 preface answered by SETTINGS, against tiny real servers."""

import contextlib
import socket
import threading

import h2.config
import h2.connection
import pytest

from webshootout.system import httpget, ready


def _serve_once(answer) -> tuple[int, threading.Thread]:
    """A listener on a free port that reads the client's first bytes and answers `answer(data)`, once."""
    listener = socket.create_server(("127.0.0.1", 0))

    def run():
        with listener:
            conn, _ = listener.accept()
            with conn, contextlib.suppress(ConnectionResetError):  # the client may close first
                conn.sendall(answer(conn.recv(65536)))
                conn.recv(65536)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return listener.getsockname()[1], thread


def _h2_server(data: bytes) -> bytes:
    conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=False))
    conn.initiate_connection()
    conn.receive_data(data)
    return conn.data_to_send()


def test_an_http2_server_is_ready_when_it_answers_the_preface_with_settings():
    port, thread = _serve_once(_h2_server)
    assert ready.problem(f"http://127.0.0.1:{port}", ready.H2, timeout=5) is None
    thread.join(5)


def test_an_http1_server_is_not_an_http2_one():
    port, thread = _serve_once(lambda data: b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n")
    why = ready.problem(f"http://127.0.0.1:{port}", ready.H2, timeout=5)
    assert why is not None and "not a SETTINGS frame" in why and "HTTP/1.1" in why
    thread.join(5)


def test_a_ready_path_must_answer_200():
    port, thread = _serve_once(lambda data: b"HTTP/1.1 503 Busy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
    assert ready.problem(f"http://127.0.0.1:{port}", "/up", timeout=5) == f"GET http://127.0.0.1:{port}/up answered 503"
    thread.join(5)


def test_nothing_listening_is_an_error_naming_the_preface():
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]
    with pytest.raises(httpget.GetError, match="the HTTP/2 preface"):
        ready.problem(f"http://127.0.0.1:{port}", ready.H2, timeout=2)
