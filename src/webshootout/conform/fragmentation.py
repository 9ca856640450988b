"""Fragmentation probes: valid requests the way TCP may deliver them, split anywhere, pipelined. A server
must answer them as if each came in one piece (RFC 9112 s2, s9.3.2)."""

from __future__ import annotations

from functools import partial

from . import rules, slowloris
from .probe import Probe, request
from .target import Target
from .wire import Write

_probe = partial(Probe, family="fragmentation", level="MUST")
_BYTE_PAUSE = 0.002  # long enough for each byte to be its own segment on loopback
_SPLIT_PAUSE = 0.1


def _bytewise(data: bytes) -> tuple[Write, ...]:
    return tuple(Write(data[i:i + 1], _BYTE_PAUSE if i else 0.0) for i in range(len(data)))


def _split(data: bytes, at: int) -> tuple[Write, ...]:
    return Write(data[:at]), Write(data[at:], _SPLIT_PAUSE)


def _two(target: Target) -> bytes:
    return request(target) * 2


def _chunked(target: Target) -> tuple[Write, ...]:
    whole = request(target, b"Transfer-Encoding: chunked", body=b"5\r\nhello\r\n0\r\n\r\n")
    head = whole.index(b"\r\n\r\n") + 4
    return (Write(whole[:head]), *_bytewise(whole[head:]))


PROBES = (
    _probe(name="byte-by-byte", section="RFC 9112 s2.1", what="a valid GET, each byte its own write",
           writes=lambda t: _bytewise(request(t)), rule=rules.answered()),
    _probe(name="head-split-at-blank-line", section="RFC 9112 s2.1",
           what="a valid GET split before the last LF of its blank line",
           writes=lambda t: _split(request(t), len(request(t)) - 1), rule=rules.answered()),
    _probe(name="chunked-body-byte-by-byte", section="RFC 9112 s7.1",
           what="a valid chunked body after the head, each byte its own write",
           writes=_chunked, rule=rules.answered()),
    _probe(name="pipeline-one-write", section="RFC 9112 s9.3.2", what="two GETs in one write",
           writes=lambda t: (Write(_two(t)),), rule=rules.answered(count=2), heads=(False, False)),
    _probe(name="pipeline-split", section="RFC 9112 s9.3.2",
           what="two GETs in two writes, split in the middle of the second's request line",
           writes=lambda t: _split(_two(t), len(request(t)) + 6), rule=rules.answered(count=2),
           heads=(False, False)),
    slowloris.PROBE,
)
