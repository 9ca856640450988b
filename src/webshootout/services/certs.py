"""A run's TLS certificates: a throwaway CA and a server certificate it signs, for the servers' address.

Made with the `cryptography` package rather than Debian's openssl CLI: the keys are made in this process, the
server key is written 0600 from its first byte (no umask or CLI-version matters), the CA's key is never
written at all (it signs once, then only its certificate is kept for clients to trust), and the names and
dates are typed values rather than a config file for `openssl req`.

The files go in a directory of the run's work (harness.environment removes it with the servers' folders, and
the claims sweep with the whole work directory when the harness was killed); nothing private is written
anywhere else. The contract (docs/adding-a-framework.md): TLS_CERT holds the leaf then the CA, TLS_KEY the
server's key as PKCS#8 PEM.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# Names every certificate holds: the harness reaches local servers on 127.0.0.1, and loadgen by --url's host.
LOCAL_NAMES = ("127.0.0.1", "localhost")
# Long enough for any run (a resumed one takes new certificates), short enough to be worthless if leaked.
VALID = datetime.timedelta(days=7)
# Clocks of the server and client hosts may differ a little.
SKEW = datetime.timedelta(hours=1)


@dataclass(frozen=True)
class Certs:
    ca: Path  # the CA's certificate (PEM): what clients trust (loadgen's --ca)
    cert: Path  # the server certificate then the CA's (PEM): TLS_CERT
    key: Path  # the server's private key, PKCS#8 PEM, mode 0600: TLS_KEY


def _name(common: str) -> x509.Name:
    return x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, "webshootout"),
                      x509.NameAttribute(NameOID.COMMON_NAME, common)])


def _alt_names(hosts: Iterable[str]) -> list[x509.GeneralName]:
    names: list[x509.GeneralName] = []
    for host in dict.fromkeys([*LOCAL_NAMES, *hosts]):
        try:
            names.append(x509.IPAddress(ipaddress.ip_address(host)))
        except ValueError:
            names.append(x509.DNSName(host))
    return names


def _ca(key: ec.EllipticCurvePrivateKey, now: datetime.datetime) -> x509.Certificate:
    name = _name("webshootout throwaway CA")
    return (x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
            .serial_number(x509.random_serial_number())
            .not_valid_before(now - SKEW).not_valid_after(now + VALID)
            .add_extension(x509.BasicConstraints(ca=True, path_length=0), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=False, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=True,
                                         crl_sign=True, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.SubjectKeyIdentifier.from_public_key(key.public_key()), critical=False)
            .sign(key, hashes.SHA256()))


def _leaf(key: ec.EllipticCurvePrivateKey, ca: x509.Certificate, ca_key: ec.EllipticCurvePrivateKey,
          hosts: Iterable[str], now: datetime.datetime) -> x509.Certificate:
    return (x509.CertificateBuilder().subject_name(_name("webshootout server")).issuer_name(ca.subject)
            .public_key(key.public_key()).serial_number(x509.random_serial_number())
            .not_valid_before(now - SKEW).not_valid_after(now + VALID)
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.KeyUsage(digital_signature=True, content_commitment=False, key_encipherment=False,
                                         data_encipherment=False, key_agreement=False, key_cert_sign=False,
                                         crl_sign=False, encipher_only=False, decipher_only=False), critical=True)
            .add_extension(x509.ExtendedKeyUsage([ExtendedKeyUsageOID.SERVER_AUTH]), critical=False)
            .add_extension(x509.SubjectAlternativeName(_alt_names(hosts)), critical=False)
            .add_extension(x509.AuthorityKeyIdentifier.from_issuer_public_key(ca_key.public_key()), critical=False)
            .sign(ca_key, hashes.SHA256()))


def make(directory: Path, hosts: Iterable[str] = ()) -> Certs:
    """A fresh CA and a server certificate for 127.0.0.1, localhost and `hosts` (the servers' address when they
    run on another host), written in `directory` (made when missing). ECDSA P-256 keys: what production TLS
    mostly serves now, and a key every TLS stack of the project reads."""
    directory.mkdir(parents=True, exist_ok=True)
    now = datetime.datetime.now(datetime.timezone.utc)
    ca_key, key = ec.generate_private_key(ec.SECP256R1()), ec.generate_private_key(ec.SECP256R1())
    ca = _ca(ca_key, now)
    leaf = _leaf(key, ca, ca_key, hosts, now)
    pem = serialization.Encoding.PEM
    certs = Certs(directory / "ca.pem", directory / "server.pem", directory / "server.key")
    for path in (certs.ca, certs.cert, certs.key):
        path.unlink(missing_ok=True)  # O_EXCL below: never write into a file someone else prepared
    certs.ca.write_bytes(ca.public_bytes(pem))
    certs.cert.write_bytes(leaf.public_bytes(pem) + ca.public_bytes(pem))
    for path in (certs.ca, certs.cert):
        path.chmod(0o644)
    fd = os.open(certs.key, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(key.private_bytes(pem, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
    return certs


def hand_to(certs: Certs, uid: int, gid: int) -> None:
    """Makes the key readable by the user a server runs as, and by it alone (it stays 0600)."""
    if os.stat(certs.key).st_uid != uid:
        os.chown(certs.key, uid, gid)


def server_env(certs: Certs) -> dict[str, str]:
    """The variables that tell a server to serve TLS on PORT (docs/adding-a-framework.md)."""
    return {"TLS_CERT": str(certs.cert), "TLS_KEY": str(certs.key)}
