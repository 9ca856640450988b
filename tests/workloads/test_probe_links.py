"""The verification client's transports: how they are named, what counts as a framed answer over HTTP/2, and
the HTTP/2 client's errors against servers that do not speak it."""

import socket
import threading

import pytest

from webshootout.workloads import techempower
from webshootout.workloads.probe import Link, Response, Visitor, framed, h2_response
from webshootout.workloads.probe_h2 import Client, H2Error


@pytest.mark.parametrize("link, name, scheme", [
    (Link(), "h1", "http"), (Link(ca="ca.pem"), "h1+tls", "https"),
    (Link(http2=True), "h2c", "http"), (Link(ca="ca.pem", http2=True), "h2+tls", "https"),
])
def test_links_are_named_as_the_catalog_names_transports(link, name, scheme):
    assert (link.name, link.scheme) == (name, scheme)


def test_an_http2_answer_is_framed_by_its_stream_and_keeps_its_cookies():
    answer = h2_response(200, [(":status", "200"), ("set-cookie", "a=1"), ("set-cookie", "b=2"),
                               ("content-type", "text/plain")], b"x")
    assert framed(answer.headers) and answer.set_cookies == ("a=1", "b=2")
    assert not framed({"content-type": "text/plain"})  # HTTP/1.1 without a length or chunking


def test_cookies_are_kept_as_a_browser_keeps_them_whatever_their_attributes():
    visitor = Visitor("127.0.0.1", 1)
    lines = ("uid=abc123; Max-Age=604800; $x-enc=URI_ENCODING; Path=/; HttpOnly", 'q="a b"; Path=/', "no-pair",
             "sessionid=x=y; Secure")
    visitor._keep_cookies(Response(200, {}, lines, b""))
    assert visitor.cookies == {"uid": "abc123", "q": '"a b"', "sessionid": "x=y"}


def test_techempowers_size_header_rule_holds_over_http1_only():
    h1 = Response(200, {"server": "s", "date": "Wed, 25 Nov 2026 10:00:00 GMT", "content-type": "text/plain"}, (),
                  b"Hello, World!")
    later = Response(200, {**h1.headers, "date": "Wed, 25 Nov 2026 10:00:01 GMT"}, (), b"Hello, World!")
    h2 = Response(200, {**h1.headers, ":status": "200"}, (), b"Hello, World!")
    assert "size header missing" in str(techempower.header_problems(h1.headers, later.headers, techempower.TEXT))
    assert techempower.header_problems(h2.headers, later.headers, techempower.TEXT) == []


def _http1_only(listener: socket.socket) -> None:
    sock, _ = listener.accept()
    with sock:
        sock.recv(1024)
        sock.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\nConnection: close\r\n\r\n")
        sock.shutdown(socket.SHUT_WR)
        while sock.recv(1024):  # until the client closes: unread bytes would reset the connection
            pass


def test_h2c_against_a_server_that_speaks_http1_only_is_a_clear_error():
    with socket.create_server(("127.0.0.1", 0)) as listener:
        thread = threading.Thread(target=_http1_only, args=(listener,))
        thread.start()
        try:
            client = Client("127.0.0.1", listener.getsockname()[1], 5.0, None)
            with pytest.raises(H2Error, match=r"(not valid HTTP/2 from|closed the HTTP/2 connection).*HTTP/1.1 400"):
                client.get("/plaintext", {}, 1000)
            client.close()
        finally:
            thread.join(5)
