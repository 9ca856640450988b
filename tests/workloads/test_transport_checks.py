"""The TLS handshake and ALPN rules of the check (workloads/transport.py)."""

import socket
import ssl
import threading

import pytest

from webshootout.services import certs
from webshootout.stacks.catalog import Transport
from webshootout.workloads import transport

H1_ONLY, BOTH = transport.OFFERS
TLS, TLS_H2 = Transport(tls=True, note="x"), Transport(tls=True, h2=True, note="x")


@pytest.mark.parametrize("chosen, claimed, expected", [
    ({H1_ONLY: "http/1.1", BOTH: "http/1.1"}, TLS, None),
    ({H1_ONLY: "http/1.1", BOTH: "h2"}, TLS_H2, None),
    ({H1_ONLY: "http/1.1", BOTH: "http/1.1"}, TLS_H2,
     "offered h2, http/1.1, the server selected 'http/1.1', expected 'h2' (the manifest's [transport] says h2 = true)"),
    ({H1_ONLY: "http/1.1", BOTH: "h2"}, TLS,
     "offered h2, http/1.1, the server selected 'h2', expected 'http/1.1' (the manifest's [transport] says no h2)"),
    ({H1_ONLY: "h2", BOTH: "h2"}, TLS_H2, "offered http/1.1, the server selected 'h2', expected 'http/1.1'"),
    ({H1_ONLY: None, BOTH: None}, TLS, None),  # no ALPN: HTTP/1.1, TLS's default
    ({H1_ONLY: None, BOTH: "h2"}, TLS_H2, None),
    ({H1_ONLY: None, BOTH: None}, TLS_H2, "offered h2, http/1.1, the server selected None, expected 'h2'"),
])
def test_alpn_must_select_what_the_manifest_claims(chosen, claimed, expected):
    problem = transport.alpn_problem(chosen, claimed)
    assert problem == expected if expected is None else expected in problem


def _serve(made: certs.Certs, listener: socket.socket, alpn: list[str]) -> None:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(made.cert, made.key)
    context.set_alpn_protocols(alpn)
    for _ in transport.OFFERS:
        sock, _ = listener.accept()
        try:
            with context.wrap_socket(sock, server_side=True):
                pass
        except (ssl.SSLError, OSError):
            return  # the client refused the certificate and stopped


@pytest.mark.parametrize("alpn, expected", [(["h2", "http/1.1"], "h2"), (["http/1.1"], "http/1.1")])
def test_selected_alpn_reads_the_servers_choice_for_each_offer(tmp_path, alpn, expected):
    made = certs.make(tmp_path)
    with socket.create_server(("127.0.0.1", 0)) as listener:
        thread = threading.Thread(target=_serve, args=(made, listener, alpn))
        thread.start()
        try:
            chosen = transport.selected_alpn("127.0.0.1", listener.getsockname()[1], made.ca)
        finally:
            thread.join(5)
    assert chosen == {H1_ONLY: "http/1.1", BOTH: expected}


def test_a_certificate_the_runs_ca_did_not_sign_is_a_clear_handshake_failure(tmp_path):
    made, other = certs.make(tmp_path / "server"), certs.make(tmp_path / "run")
    with socket.create_server(("127.0.0.1", 0)) as listener:
        thread = threading.Thread(target=_serve, args=(made, listener, ["http/1.1"]))
        thread.start()
        try:
            with pytest.raises(ssl.SSLCertVerificationError) as info:
                transport.selected_alpn("127.0.0.1", listener.getsockname()[1], other.ca)
        finally:
            thread.join(5)
    assert "does not verify against the run's CA" in transport.handshake_failure(info.value)
