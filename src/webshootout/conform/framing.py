"""Framing probes, Content-Length and Transfer-Encoding (RFC 9112 s6): requests two parsers could frame
two ways, the pairs request smuggling is made of. Each is complete under every reading of it, so a server
that accepts it answers at once rather than waiting for bytes."""

from __future__ import annotations

from functools import partial

from . import rules
from .probe import NEXT, Probe, request, then_next

_probe = partial(Probe, family="framing", level="MUST", heads=NEXT, rule=rules.framed())
_CHUNKED_EMPTY = b"0\r\n\r\n"


def _cl(value: bytes, what: str, name: str) -> Probe:
    return _probe(name=name, section="RFC 9112 s6.3", what=f"Content-Length: {what}, 5 bytes of body",
                  writes=then_next(lambda t: request(t, b"Content-Length: " + value, body=b"hello")))


def _te(value: bytes, name: str, *, body: bytes = _CHUNKED_EMPTY) -> Probe:
    return _probe(name=name, section="RFC 9112 s6.3", what=f"Transfer-Encoding: {value!r}, no Content-Length",
                  writes=then_next(lambda t: request(t, b"Transfer-Encoding: " + value, body=body)))


PROBES = (
    _probe(name="cl-te", section="RFC 9112 s6.1", what="Content-Length: 5 then Transfer-Encoding: chunked",
           writes=then_next(lambda t: request(t, b"Content-Length: 5", b"Transfer-Encoding: chunked",
                                         body=_CHUNKED_EMPTY))),
    _probe(name="te-cl", section="RFC 9112 s6.1", what="Transfer-Encoding: chunked then Content-Length: 5",
           writes=then_next(lambda t: request(t, b"Transfer-Encoding: chunked", b"Content-Length: 5",
                                         body=_CHUNKED_EMPTY))),
    _probe(name="cl-cl-different", section="RFC 9112 s6.3", what="Content-Length: 0 and Content-Length: 5",
           writes=then_next(lambda t: request(t, b"Content-Length: 0", b"Content-Length: 5", body=b"hello"))),
    _cl(b"0, 5", "a list of two values (0, 5)", "cl-list-different"),
    _cl(b"+5", "+5", "cl-plus"),
    _cl(b"-5", "-5", "cl-negative"),
    _cl(b"0x5", "0x5", "cl-hex"),
    _cl(b"18446744073709551621", "2^64 + 5 (5 once it wraps)", "cl-overflow"),
    _cl(b"5a", "5a", "cl-non-digit"),
    _te(b"gzip", "te-unknown", body=b""),
    _te(b"identity", "te-identity", body=b""),
    _te(b"chunked, gzip", "te-not-final"),
    _te(b"chunkedx", "te-chunked-typo"),
    _te(b"\x0bchunked", "te-vertical-tab"),
    _probe(name="te-two-lines", section="RFC 9112 s6.3",
           what="Transfer-Encoding: chunked and a second line Transfer-Encoding: gzip (chunked is not last)",
           writes=then_next(lambda t: request(t, b"Transfer-Encoding: chunked", b"Transfer-Encoding: gzip",
                                         body=_CHUNKED_EMPTY))),
    _probe(name="te-http10", section="RFC 9112 s6.1",
           what="HTTP/1.0 with Connection: keep-alive and Transfer-Encoding: chunked (must close after it)",
           writes=then_next(lambda t: request(t, b"Connection: keep-alive", b"Transfer-Encoding: chunked",
                                         body=_CHUNKED_EMPTY, start=_start(t, b"HTTP/1.0"))),
           rule=rules.closes),
    _probe(name="te-space-before-colon", section="RFC 9112 s5.1",
           what="'Transfer-Encoding : chunked' (whitespace before the colon)",
           writes=then_next(lambda t: request(t, b"Transfer-Encoding : chunked", body=_CHUNKED_EMPTY))),
)


def _start(target, version: bytes) -> bytes:
    return b"GET " + target.plaintext.encode() + b" " + version
