"""Chunked-body probes (RFC 9112 s7.1): chunk sizes and chunk lines a strict parser refuses and a lenient
one reads as something else, the other half of the smuggling pairs."""

from __future__ import annotations

from functools import partial

from . import rules
from .probe import NEXT, Probe, request, then_next

_probe = partial(Probe, family="framing", section="RFC 9112 s7.1", level="MUST", heads=NEXT,
                 rule=rules.framed())


def _chunked(body: bytes, name: str, what: str, level: str = "MUST") -> Probe:
    return _probe(name=name, what=f"Transfer-Encoding: chunked, {what}: {body!r}", level=level,
                  writes=then_next(lambda t: request(t, b"Transfer-Encoding: chunked", body=body)))


PROBES = (
    _chunked(b"zz\r\n\r\n", "chunk-size-invalid", "a chunk size that is not hex"),
    _chunked(b"-5\r\nhello\r\n0\r\n\r\n", "chunk-size-negative", "a negative chunk size"),
    _chunked(b"0x5\r\nhello\r\n0\r\n\r\n", "chunk-size-0x", "a chunk size with a 0x prefix"),
    _chunked(b"10000000000000005\r\nhello\r\n0\r\n\r\n", "chunk-size-overflow",
             "a chunk size of 2^64 + 5 (5 once it wraps)"),
    _chunked(b"5 \r\nhello\r\n0\r\n\r\n", "chunk-size-space", "a space after the chunk size", "SHOULD"),
    _chunked(b"5\nhello\r\n0\r\n\r\n", "chunk-size-bare-lf", "a chunk-size line ended by a bare LF"),
    _chunked(b"5\r\nhello\n0\r\n\r\n", "chunk-data-bare-lf", "chunk data ended by a bare LF"),
    _chunked(b"5;a=b\nhello\r\n0\r\n\r\n", "chunk-ext-bare-lf", "a chunk extension ended by a bare LF"),
    _chunked(b"5\r\nhelloXX\r\n0\r\n\r\n", "chunk-data-overrun", "7 bytes of data in a chunk of 5"),
    _chunked(b"5;\r\nhello\r\n0\r\n\r\n", "chunk-ext-no-name", "a chunk extension without a name", "SHOULD"),
)
