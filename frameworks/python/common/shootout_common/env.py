"""The environment the harness gives every server (docs/adding-a-framework.md)."""

import os
import ssl


def value(name: str) -> str:
    try:
        return os.environ[name]
    except KeyError:
        raise RuntimeError(
            f"environment variable {name} is not set; the harness sets it (docs/adding-a-framework.md)"
        ) from None


def positive_int(name: str) -> int:
    raw = value(name)
    if not raw.isdigit() or int(raw) < 1:
        raise RuntimeError(f"environment variable {name} is {raw!r}: expected a positive integer")
    return int(raw)


def db_pool() -> int:
    """Database connections this process may open: its pool's minimum and maximum (docs/fairness.md)."""
    return positive_int("DB_POOL")


def db_pool_total() -> int:
    """Database connections in all: the one pool of a one-process server (docs/fairness.md)."""
    return positive_int("DB_POOL_TOTAL")


def tls_context() -> ssl.SSLContext | None:
    """The server's TLS context from TLS_CERT and TLS_KEY (PEM: the certificate then its CA's, and the key);
    None when neither is set, so the server stays cleartext. One without the other is a mistake to stop on,
    not a reason to serve cleartext where TLS was asked for."""
    cert, key = os.environ.get("TLS_CERT"), os.environ.get("TLS_KEY")
    if not cert and not key:
        return None
    if not cert or not key:
        raise RuntimeError(f"environment variable {'TLS_CERT' if not cert else 'TLS_KEY'} is not set: TLS takes "
                           "both TLS_CERT and TLS_KEY (docs/adding-a-framework.md)")
    # Python's server-side defaults (TLS 1.2 and up). No ALPN: selecting none means HTTP/1.1 to the client.
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(cert, key)
    return context
