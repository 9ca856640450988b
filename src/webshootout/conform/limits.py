"""Limit probes: heads and chunk lines far over any sane size. Each must be refused, never crash the
server and never hang it (a hang fails: the server holds the bytes and waits for more)."""

from __future__ import annotations

from functools import partial

from . import rules
from .probe import NEXT, Probe, once, request, then_next

MIB = 1 << 20

_probe = partial(Probe, family="limits", level="SHOULD", rule=rules.refused(hang="fail"))

PROBES = (
    _probe(name="request-line-1mib", section="RFC 9112 s3 (414)", what="a request-target of 1 MiB",
           writes=once(lambda t: request(t, start=b"GET " + t.plaintext.encode() + b"?" + b"a" * MIB
                                         + b" HTTP/1.1"))),
    _probe(name="field-value-1mib", section="RFC 6585 s5 (431)", what="one field value of 1 MiB",
           writes=once(lambda t: request(t, b"X-Probe: " + b"a" * MIB))),
    _probe(name="field-section-1mib", section="RFC 6585 s5 (431)", what="128 fields of 8 KiB each",
           writes=once(lambda t: request(t, *(b"X-Probe-%d: " % i + b"a" * 8192 for i in range(128))))),
    _probe(name="fields-10000", section="RFC 6585 s5 (431)", what="10,000 short fields",
           writes=once(lambda t: request(t, *(b"X-Probe-%d: 1" % i for i in range(10_000))))),
    _probe(name="chunk-ext-1mib", section="RFC 9112 s7.1.1", what="a chunk extension of 1 MiB",
           heads=NEXT, rule=rules.framed(hang="fail"),
           writes=then_next(lambda t: request(t, b"Transfer-Encoding: chunked",
                                              body=b"5;a=" + b"b" * MIB + b"\r\nhello\r\n0\r\n\r\n"))),
)
