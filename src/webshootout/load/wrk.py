"""wrk driver: results come from a Lua done() hook that writes JSON, never from wrk's text."""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path

from .base import LATENCY_KEYS, DriverError, LoadResult, LoadSpec, connects_inside, errors_of, run_tool

SCRIPT = Path(__file__).with_name("done.lua")
# wrk 4.2's thread_main: connect_socket() for every connection of the thread, all at once, then its clock
# starts and each connection sends its first request as soon as its connect completes.
HOW_IT_CONNECTS = ("wrk starts every connect of a thread at once, starts its clock, and each connection sends as "
                   "soon as it is open, while the others still connect")


def parse(data: dict, client_cpu_s: float, sessions_requested: bool) -> LoadResult:
    try:
        duration = data["duration_us"] / 1e6
        latency = {key: float(data["latency_us"][key]) for key in LATENCY_KEYS}
        errors = errors_of(**data["errors"])
        requests = int(data["requests"])
        bytes_read = int(data["bytes"])
    except (KeyError, TypeError, ValueError) as exc:
        raise DriverError(f"wrk's JSON summary lacks or mistypes {exc}: {data!r}") from None
    notes = ("cookieless: wrk keeps no cookies, every request is a new visitor",) if sessions_requested else ()
    return LoadResult(driver="wrk", requests=requests, duration_s=duration,
                      rps=requests / duration if duration > 0 else 0.0, bytes_read=bytes_read,
                      latency_us=latency, errors=errors, client_cpu_s=client_cpu_s, validated=False,
                      sessions=False, notes=notes)


def run(spec: LoadSpec, log: Path | None = None) -> LoadResult:
    if spec.target.websocket_message is not None:
        raise DriverError("wrk cannot drive WebSocket workloads")
    spec.require_closed_loop("wrk")
    spec.require_plain_get("wrk")
    spec.require_cleartext_http1("wrk")
    if not spec.keepalive:
        # wrk reconnects when a server closes, but starts its clock after the connect: the cost a
        # connection per request is about would be left out of the latency.
        raise DriverError("wrk cannot time a connection per request (keepalive off); use --driver native or ab")
    with tempfile.TemporaryDirectory(prefix="wrk-") as tmp:
        out = Path(tmp) / "summary.json"
        argv = ["wrk", "-t", str(spec.threads), "-c", str(max(spec.connections, spec.threads)),
                "-d", f"{max(1, round(spec.duration))}s", "--timeout", f"{spec.timeout:g}s", "-s", str(SCRIPT), spec.url]
        done, cpu = run_tool(argv, spec.cpus, spec.duration + 60, log, env={**os.environ, "WRK_JSON_OUT": str(out)})
        if done.returncode != 0 or not out.exists():
            raise DriverError(f"wrk exited with {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
        try:
            data = json.loads(out.read_text())
        except ValueError as exc:
            raise DriverError(f"wrk's summary is not JSON ({exc}): {out.read_text()[:300]!r}") from None
    return connects_inside(parse(data, cpu, spec.target.sessions), spec, HOW_IT_CONNECTS)
