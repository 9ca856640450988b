"""HTTP/2 probes (RFC 9113), family "h2": raw frames over h2c with prior knowledge or TLS with ALPN h2. Bad
SETTINGS and WINDOW_UPDATE frames (connection errors), malformed requests (stream errors, never a 2xx) and a
valid request split into tiny frames; the floods and resets are in h2attacks.py."""

from __future__ import annotations

import struct
from functools import partial
from typing import Callable

from . import h2frames as f
from . import h2rules, h2talk
from .probe import Probe
from .target import Target
from .wire import Write

_TINY_PAUSE = 0.002  # each piece its own segment on loopback


def _run(writes: Callable[[Target], tuple[Write, ...]]):
    return lambda target, limits: h2talk.exchange(target, writes(target), limits)


def _probe(name: str, section: str, what: str, frames: Callable[[Target], bytes], rule, level: str = "MUST") -> Probe:
    writes = (lambda t: (Write(f.start() + frames(t)),))
    return Probe(name=name, family="h2", section=section, level=level, what=what, writes=writes, rule=rule,
                 run=_run(writes))


def _then_get(bad: bytes) -> Callable[[Target], bytes]:
    """A bad frame, then a plain GET on stream 1: a server that let the frame pass answers it."""
    return lambda t: bad + f.headers(h2talk.STREAM, f.request_fields(t))


def _malformed(t: Target, fields: list[tuple[str, str]]) -> bytes:
    return f.headers(h2talk.STREAM, fields)


_conn = partial(_probe, rule=h2rules.connection_error(f.PROTOCOL_ERROR))
_flow = partial(_probe, rule=h2rules.connection_error(f.FLOW_CONTROL_ERROR))
_bad_request = partial(_probe, section="RFC 9113 s8.2", rule=h2rules.malformed)


SPLIT_FRAMES = 4  # the header block's frames: a few, since a server may take many tiny ones for an attack


def _split(t: Target) -> tuple[Write, ...]:
    """The preface four bytes a write, then the request's header block in SPLIT_FRAMES frames (a HEADERS
    frame, CONTINUATION frames after it), each frame in two writes: its 9-byte header, then its payload."""
    opening = f.start()
    pieces = [Write(opening[i:i + 4], _TINY_PAUSE if i else 0.0) for i in range(0, len(opening), 4)]
    block = f.block(f.request_fields(t))
    cuts = [len(block) * i // SPLIT_FRAMES for i in range(SPLIT_FRAMES + 1)]
    frames = [f.frame(f.HEADERS if i == 0 else f.CONTINUATION,
                      (f.END_STREAM if i == 0 else 0) | (f.END_HEADERS if i == SPLIT_FRAMES - 1 else 0),
                      h2talk.STREAM, block[cuts[i]:cuts[i + 1]]) for i in range(SPLIT_FRAMES)]
    return (*pieces, *(Write(part, _TINY_PAUSE) for frame in frames for part in (frame[:9], frame[9:])))


PROBES = (
    _conn(name="h2-settings-enable-push-2", section="RFC 9113 s6.5.2", frames=_then_get(f.settings((f.ENABLE_PUSH, 2))),
          what="SETTINGS_ENABLE_PUSH = 2: a connection error PROTOCOL_ERROR"),
    _flow(name="h2-settings-window-too-big", section="RFC 9113 s6.5.2",
          frames=_then_get(f.settings((f.INITIAL_WINDOW_SIZE, 1 << 31))),
          what="SETTINGS_INITIAL_WINDOW_SIZE = 2^31: a connection error FLOW_CONTROL_ERROR"),
    _conn(name="h2-settings-frame-size-small", section="RFC 9113 s6.5.2",
          frames=_then_get(f.settings((f.MAX_FRAME_SIZE, 16383))),
          what="SETTINGS_MAX_FRAME_SIZE = 16383: a connection error PROTOCOL_ERROR"),
    _probe(name="h2-settings-ack-payload", section="RFC 9113 s6.5",
           frames=_then_get(f.frame(f.SETTINGS, f.ACK, 0, struct.pack(">HI", f.MAX_FRAME_SIZE, 16384))),
           rule=h2rules.connection_error(f.FRAME_SIZE_ERROR),
           what="a SETTINGS ACK with a payload: a connection error FRAME_SIZE_ERROR"),
    _conn(name="h2-window-update-zero", section="RFC 9113 s6.9", frames=_then_get(f.window_update(0, 0)),
          what="a WINDOW_UPDATE of 0 on the connection: a connection error PROTOCOL_ERROR"),
    _flow(name="h2-window-overflow", section="RFC 9113 s6.9.1", frames=_then_get(f.window_update(0, (1 << 31) - 1)),
          what="a WINDOW_UPDATE taking the connection's window past 2^31-1: a connection error FLOW_CONTROL_ERROR"),
    _bad_request(name="h2-header-uppercase", what="a request with an uppercase field name (X-Probe)",
                 frames=lambda t: _malformed(t, [*f.request_fields(t), ("X-Probe", "1")])),
    _bad_request(name="h2-header-connection", what="a request with connection: keep-alive",
                 frames=lambda t: _malformed(t, [*f.request_fields(t), ("connection", "keep-alive")])),
    _bad_request(name="h2-header-te-gzip", what="a request with te: gzip (only trailers is allowed)",
                 frames=lambda t: _malformed(t, [*f.request_fields(t), ("te", "gzip")])),
    _bad_request(name="h2-pseudo-after-regular", section="RFC 9113 s8.3",
                 what="a pseudo-header (:path) after a regular field",
                 frames=lambda t: _malformed(t, [*f.request_fields(t)[:3], ("x-probe", "1"), f.request_fields(t)[3]])),
    _bad_request(name="h2-missing-path", section="RFC 9113 s8.3.1", what="a GET without :path",
                 frames=lambda t: _malformed(t, f.request_fields(t)[:3])),
    Probe(name="h2-split-tiny-frames", family="h2", section="RFC 9113 s6.10", level="MUST",
          what=f"a valid GET: the preface 4 bytes a write, its header block in {SPLIT_FRAMES} frames (HEADERS, "
               "CONTINUATION), each frame in two writes",
          writes=_split, rule=h2rules.answered, run=_run(_split)),
)
