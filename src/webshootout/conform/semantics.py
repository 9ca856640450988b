"""Semantics probes: what a request means rather than how it is framed. Host, HTTP/1.0 and persistence,
HEAD, the request-target's forms, Expect: 100-continue, and request lines a server should refuse."""

from __future__ import annotations

from functools import partial

from . import rules
from .probe import Probe, once, request
from .target import Target
from .wire import Write

_probe = partial(Probe, family="semantics")
_CONTINUE_WAIT = 1.0  # how long the client waits for 100 Continue before it sends the body anyway


def _line(target: Target, method: bytes = b"GET", path: bytes | None = None, version: bytes = b"HTTP/1.1",
          space: bytes = b" ") -> bytes:
    return method + space + (target.plaintext.encode() if path is None else path) + b" " + version


def _expect(target: Target) -> tuple[Write, ...]:
    head = request(target, b"Content-Type: application/octet-stream", b"Content-Length: 5",
                   b"Expect: 100-continue", start=_line(target, b"POST", target.upload.encode()))
    return Write(head), Write(b"hello", _CONTINUE_WAIT, until_answer=True)


def _refused(name: str, what: str, start, section: str = "RFC 9112 s3", level: str = "SHOULD") -> Probe:
    return _probe(name=name, section=section, level=level, what=what,
                  writes=once(lambda t: request(t, start=start(t))), rule=rules.refused())


PROBES = (
    _probe(name="missing-host", section="RFC 9112 s3.2", level="MUST", what="HTTP/1.1 without Host",
           writes=once(lambda t: request(t, host=False)), rule=rules.refused()),
    _probe(name="two-hosts", section="RFC 9112 s3.2", level="MUST", what="two Host fields",
           writes=once(lambda t: request(t, b"Host: other.example")), rule=rules.refused()),
    _probe(name="host-invalid", section="RFC 9112 s3.2", level="MUST", what="Host: exa mple (a space in it)",
           writes=once(lambda t: request(t, b"Host: exa mple", host=False)), rule=rules.refused()),
    _probe(name="http10-no-host", section="RFC 9112 s3.2", level="SHOULD", what="HTTP/1.0 without Host",
           writes=once(lambda t: request(t, host=False, start=_line(t, version=b"HTTP/1.0"))),
           rule=rules.answered()),
    _probe(name="http10-close", section="RFC 9112 s9.3", level="MUST",
           what="HTTP/1.0 without keep-alive: answered, then closed",
           writes=once(lambda t: request(t, start=_line(t, version=b"HTTP/1.0"))), rule=rules.answered(close=True)),
    _probe(name="http10-keep-alive", section="RFC 9112 s9.3", level="SHOULD",
           what="HTTP/1.0 with Connection: keep-alive: closed, or kept and said so",
           writes=once(lambda t: request(t, b"Connection: keep-alive", start=_line(t, version=b"HTTP/1.0"))),
           rule=rules.keep_alive_said),
    _probe(name="connection-close", section="RFC 9112 s9.6", level="MUST",
           what="HTTP/1.1 with Connection: close: answered, then closed",
           writes=once(lambda t: request(t, b"Connection: close")), rule=rules.answered(close=True)),
    _probe(name="head-no-body", section="RFC 9110 s9.3.2", level="MUST", what="HEAD: a head and no content",
           writes=once(lambda t: request(t, start=_line(t, b"HEAD"))), rule=rules.answered(body=None),
           heads=(True,)),
    _probe(name="absolute-form", section="RFC 9112 s3.2.2", level="MUST",
           what="GET http://host:port/path (absolute-form), which a server must accept",
           writes=once(lambda t: request(t, start=_line(t, path=f"http://{t.authority}{t.plaintext}".encode()))),
           rule=rules.answered()),
    _probe(name="options-star", section="RFC 9110 s9.3.7", level="SHOULD", what="OPTIONS * HTTP/1.1",
           writes=once(lambda t: request(t, start=b"OPTIONS * HTTP/1.1")), rule=rules.any_answer),
    _probe(name="expect-100-continue", section="RFC 9110 s10.1.1", level="SHOULD", needs_body=True,
           what="POST to the upload path with Expect: 100-continue, the body sent on 100 (or after 1 s)",
           writes=_expect, rule=rules.continued),
    _refused("request-line-double-space", "two spaces after the method", lambda t: _line(t, space=b"  ")),
    _refused("version-lowercase", "the version as http/1.1", lambda t: _line(t, version=b"http/1.1"), "RFC 9112 s2.3"),
    _refused("version-2-over-h1", "HTTP/2.0 in an HTTP/1 request line", lambda t: _line(t, version=b"HTTP/2.0"),
             "RFC 9110 s15.6.6 (505)"),
    _refused("target-fragment", "a request-target with a #fragment",
             lambda t: _line(t, path=t.plaintext.encode() + b"#frag"), "RFC 9112 s3.2"),
    _refused("target-ctl", "a control byte (0x01) in the request-target",
             lambda t: _line(t, path=t.plaintext.encode() + b"?a\x01b"), "RFC 9112 s3.2"),
)
