"""Field-line probes (RFC 9112 s5, RFC 9110 s5.5): whitespace before the colon, obs-fold, control bytes
and broken field lines, each of which two parsers may read differently."""

from __future__ import annotations

from functools import partial

from . import rules
from .probe import Probe, once, request

_probe = partial(Probe, family="framing")


def _line(line: bytes, name: str, section: str, level: str, what: str) -> Probe:
    return _probe(name=name, section=section, level=level, what=f"{what}: {line!r}",
                  writes=once(lambda t: request(t, line)), rule=rules.refused())


PROBES = (
    _line(b"X-Probe : 1", "space-before-colon", "RFC 9112 s5.1", "MUST", "whitespace before a field's colon"),
    _line(b"X-Probe\t: 1", "tab-before-colon", "RFC 9112 s5.1", "MUST", "a tab before a field's colon"),
    # Folding is allowed to a server (replace it with a space), so accepting it is a warn: a proxy in front
    # that does not fold reads another field.
    _probe(name="obs-fold", section="RFC 9112 s5.2", level="SHOULD", what="a field value folded onto a line "
           "starting with a space (obs-fold)", writes=once(lambda t: request(t, b"X-Probe: a", b" b")),
           rule=rules.refused()),
    # Replacing NUL or CR with a space is allowed, and looks the same from outside as keeping them.
    _line(b"X-Probe: a\x00b", "nul-in-value", "RFC 9110 s5.5", "SHOULD", "a NUL in a field value"),
    _line(b"X-Probe: a\rb", "cr-in-value", "RFC 9110 s5.5", "SHOULD", "a bare CR in a field value"),
    _line(b"X-Probe: a\x01b", "ctl-in-value", "RFC 9110 s5.5", "SHOULD", "a control byte (0x01) in a field value"),
    _line(b"X-Probe: a\x7fb", "del-in-value", "RFC 9110 s5.5", "SHOULD", "DEL (0x7f) in a field value"),
    _line(b"X-Probe 1", "field-no-colon", "RFC 9112 s2.2", "SHOULD", "a field line without a colon"),
    _line(b"X(Probe): 1", "field-name-invalid", "RFC 9112 s2.2", "SHOULD", "a field name with ( and )"),
    _line(b": 1", "field-name-empty", "RFC 9112 s2.2", "SHOULD", "a field line with an empty name"),
    _probe(name="bare-cr-line-end", section="RFC 9112 s2.2", level="MUST",
           what="the request line ended by a bare CR before the Host line",
           writes=once(lambda t: request(t, start=b"GET " + t.plaintext.encode() + b" HTTP/1.1\rX-Probe: 1")),
           rule=rules.refused()),
)
