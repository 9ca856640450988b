import ipaddress
import os
import pwd
import socket
import ssl
import stat
import threading

import pytest
from cryptography import x509

from webshootout.services import certs
from webshootout.system import httpget


def test_make_writes_the_ca_the_chain_and_a_private_key_only_its_owner_reads(tmp_path):
    made = certs.make(tmp_path / "tls")
    assert stat.S_IMODE(made.key.stat().st_mode) == 0o600
    assert made.key.read_text().startswith("-----BEGIN PRIVATE KEY-----")  # PKCS#8, as the contract says
    chain = x509.load_pem_x509_certificates(made.cert.read_bytes())
    ca = x509.load_pem_x509_certificate(made.ca.read_bytes())
    assert [c.subject for c in chain] == [chain[0].subject, ca.subject]  # the leaf, then the CA
    assert chain[0].issuer == ca.subject
    assert sorted(p.name for p in (tmp_path / "tls").iterdir()) == ["ca.pem", "server.key", "server.pem"]


def test_the_certificate_names_loopback_and_the_servers_host(tmp_path):
    made = certs.make(tmp_path, ["10.0.0.7", "app.lab"])
    leaf = x509.load_pem_x509_certificates(made.cert.read_bytes())[0]
    names = leaf.extensions.get_extension_for_class(x509.SubjectAlternativeName).value
    assert set(names.get_values_for_type(x509.IPAddress)) == {ipaddress.ip_address("127.0.0.1"),
                                                             ipaddress.ip_address("10.0.0.7")}
    assert set(names.get_values_for_type(x509.DNSName)) == {"localhost", "app.lab"}


def _serve_once(made: certs.Certs, listener: socket.socket) -> None:
    server = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    server.load_cert_chain(made.cert, made.key)
    sock, _ = listener.accept()
    try:
        with server.wrap_socket(sock, server_side=True):
            pass
    except (ssl.SSLError, OSError):
        pass  # the client refused the certificate


def _handshake(made: certs.Certs, trusted) -> None:
    with socket.create_server(("127.0.0.1", 0)) as listener:
        thread = threading.Thread(target=_serve_once, args=(made, listener))
        thread.start()
        try:
            with socket.create_connection(listener.getsockname(), timeout=5) as raw:
                httpget.tls_context(trusted).wrap_socket(raw, server_hostname="127.0.0.1").close()
        finally:
            thread.join(5)


def test_a_client_trusting_the_runs_ca_verifies_the_server_and_one_trusting_another_ca_does_not(tmp_path):
    made, other = certs.make(tmp_path / "a"), certs.make(tmp_path / "b")
    _handshake(made, made.ca)
    with pytest.raises(ssl.SSLCertVerificationError):
        _handshake(made, other.ca)


def test_make_again_replaces_the_files(tmp_path):
    first = certs.make(tmp_path).ca.read_bytes()
    assert certs.make(tmp_path).ca.read_bytes() != first


def test_server_env_names_the_chain_and_the_key(tmp_path):
    made = certs.make(tmp_path)
    assert certs.server_env(made) == {"TLS_CERT": str(made.cert), "TLS_KEY": str(made.key)}


@pytest.mark.skipif(os.geteuid() != 0, reason="only root can give a file to another user")
def test_hand_to_gives_the_key_to_the_servers_user_and_keeps_it_private(tmp_path):
    made = certs.make(tmp_path)
    nobody = pwd.getpwnam("nobody")
    certs.hand_to(made, nobody.pw_uid, nobody.pw_gid)
    info = made.key.stat()
    assert (info.st_uid, stat.S_IMODE(info.st_mode)) == (nobody.pw_uid, 0o600)
