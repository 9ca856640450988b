"""native driver: our own shootout-load (loadgen/), which validates every response and keeps sessions."""

from __future__ import annotations

import json
import os
import subprocess
import time
from dataclasses import replace
from pathlib import Path

from .base import (CONNECT_PHASE_KEYS, HTTP1, LATENCY_KEYS, DriverError, LoadResult, LoadSpec, errors_of,
                   negotiated, run_tool)

ROOT = Path(__file__).resolve().parents[3]
BINARY_ENV = "SHOOTOUT_LOAD"  # overrides where the binary is looked for


def binary() -> Path:
    path = Path(os.environ.get(BINARY_ENV) or ROOT / "target" / "release" / "shootout-load")
    if not os.access(path, os.X_OK):
        raise DriverError(f"shootout-load is not built at {path}: run `cargo build --release -p shootout-load` "
                          f"in {ROOT} (or set {BINARY_ENV})")
    return path


def argv(spec: LoadSpec, program: str = "shootout-load") -> list[str]:
    """The command line that asks shootout-load for the load and the checks the target describes."""
    target = spec.target
    args = [program, "--json", "-c", str(spec.connections), "-t", str(max(1, min(spec.threads, spec.connections))),
            "-d", f"{spec.duration:g}s", "--timeout", f"{spec.timeout:g}s",
            "--connect-deadline", f"{spec.connect_deadline:g}s", "--connect-min", f"{spec.connect_min_percent:g}"]
    if spec.warmup > 0:
        args += ["--warmup", f"{spec.warmup:g}s"]
    if spec.warmup_steady is not None:
        args += ["--warmup-steady", f"{spec.warmup_steady:g}"]
    if spec.pipeline > 1:
        args += ["--pipeline", str(spec.pipeline)]
    if not spec.keepalive:
        args.append("--no-keepalive")
    if spec.requests_per_connection is not None:
        args += ["--requests-per-connection", str(spec.requests_per_connection)]
    if spec.rate is not None:
        args += ["--rate", f"{spec.rate:g}"]
    if spec.burst is not None:
        args += ["--burst", ",".join(map(str, spec.burst.steps)), "--step", f"{spec.burst.step_seconds:g}s"]
    # Without --tls-resume every connection makes a full handshake: a connection per request pays it each time.
    if spec.tls_ca is not None:
        args += ["--tls", "--ca", str(spec.tls_ca)]
    if spec.http != HTTP1:
        args += ["--http", spec.http]
    if spec.streams > 1:
        args += ["--streams", str(spec.streams)]
    if target.websocket_message is not None:
        scheme = "wss" if spec.tls_ca else "ws"
        return [*args, "--websocket", "--message", target.websocket_message,
                f"{scheme}://{spec.host}:{spec.port}{target.path}"]
    if target.mix is not None:
        return [*args, "--mix", target.mix, spec.url]
    if target.grpc is not None:
        return [*args, "--grpc", target.grpc, spec.url]
    args += ["--expect-status", str(target.expect_status)]
    if target.method != "GET":
        args += ["--method", target.method]
    for header in target.headers:
        args += ["--header", header]
    if target.body_bytes is not None:
        args += ["--body-size", str(target.body_bytes)]
    if target.chunk_bytes is not None:
        args += ["--chunk-size", str(target.chunk_bytes)]
    if target.expect_encoding is not None:
        args += ["--expect-encoding", target.expect_encoding]
    if target.sessions:
        args.append("--sessions")
        if target.expect_counter:
            args.append("--expect-counter")
    if target.expect_body is not None:
        args += ["--expect-body", target.expect_body]
    if target.expect_body_regex is not None:
        args += ["--expect-body-regex", target.expect_body_regex]
    return [*args, spec.url]


def _latency(data: dict, key: str) -> dict[str, float | None]:
    block = data[key]
    return {name: None if block[name] is None else float(block[name]) for name in LATENCY_KEYS}


def _optional(data: dict, key: str, kind: type):
    """A field older shootout-load builds did not print."""
    return None if data.get(key) is None else kind(data[key])


def _connect_phase(data: dict) -> dict | None:
    """The connect phase as shootout-load reports it; None without one (a connection per request, or a build
    from before the phase)."""
    phase = data.get("connect")
    if phase is None:
        return None
    return {key: phase[key] for key in CONNECT_PHASE_KEYS}


def _transport(data: dict) -> dict | None:
    """What shootout-load negotiated; None from a build before TLS and HTTP/2."""
    transport = data.get("transport")
    if transport is None:
        return None
    tls = transport["tls"]
    return {"http": str(transport["http"]), "streams": int(transport["streams"]),
            "tls": None if tls is None else {
                "version": str(tls["version"]), "cipher": str(tls["cipher"]), "alpn": tls["alpn"],
                "handshakes": int(tls["handshakes"]), "resumed": int(tls["resumed"]),
                "handshake_ms": {key: _ms(tls["handshake_ms"][key]) for key in ("mean", "p50", "p99", "max")}}}


def _mix(data: dict) -> list[dict] | None:
    """Each --mix step as shootout-load reports it; None without a mix."""
    if data.get("mix") is None:
        return None
    counts = ("sent", "done", "failed", "unanswered", "requests", "errors")
    return [{"name": str(step["name"]), **{key: int(step[key]) for key in counts},
             "latency_us": _latency(step, "latency_us")} for step in data["mix"]]


def _ms(value) -> float | None:
    return None if value is None else float(value)


def parse(data: dict) -> LoadResult:
    """A LoadResult from shootout-load's JSON (schemas/shootout-load.schema.json)."""
    try:
        # shootout-load's own CPU time over the measured window, not the child's rusage: that would add
        # start-up, connects and warm-up, and the client-bound flag compares CPU with the window alone.
        result = LoadResult(
            driver="native", requests=int(data["requests"]), duration_s=float(data["duration_s"]),
            rps=float(data["rps"]), bytes_read=int(data["bytes_read"]), latency_us=_latency(data, "latency_us"),
            errors=errors_of(**data["errors"]), client_cpu_s=float(data["client_cpu_s"]),
            validated=bool(data["validated"]),
            sessions=bool(data["sessions"]), status_counts={str(k): int(v) for k, v in data["status_counts"].items()},
            service_time_us=_latency(data, "service_time_us"), mode=str(data["mode"]),
            target_rate=None if data["target_rate"] is None else float(data["target_rate"]),
            achieved_rate=float(data["achieved_rate"]),
            timeline=[{"second": int(s["second"]), "requests": int(s["requests"]), "errors": int(s["errors"]),
                       "p99_us": s["p99_us"]} for s in data["timeline"]],
            latency_histogram=[[int(value), int(count)] for value, count in data["histogram"]],
            connect_s=_optional(data, "connect_s", float), responses_total=_optional(data, "responses_total", int),
            keepalive=bool(data.get("keepalive", True)), warmup_s=_optional(data, "warmup_s", float),
            window_start_s=_optional(data, "window_start_s", float), io=_optional(data, "io", str),
            connect=_connect_phase(data), transport=_transport(data),
            reconnects=_optional(data, "reconnects", int),
            requests_per_connection=_optional(data, "requests_per_connection", int), mix=_mix(data),
            warmup_curve=None if data.get("warmup_curve") is None else [int(n) for n in data["warmup_curve"]])
    except (KeyError, TypeError, ValueError) as exc:
        raise DriverError(f"shootout-load's JSON lacks or mistypes {exc}: {str(data)[:300]}") from None
    if data.get("rate_kept") is False:
        return replace(result, notes=(f"open loop below target: achieved {result.achieved_rate:.0f} "
                                      f"of {result.target_rate:.0f} req/s",))
    return result


def allowance(spec: LoadSpec) -> float:
    """Seconds a run may take: the connect phase (up to its deadline) and the warm-up come before the window,
    and the timeout may hold a request up at its end."""
    return spec.connect_deadline + spec.warmup + spec.duration + spec.timeout + 60


def result_of(done: subprocess.CompletedProcess) -> LoadResult:
    """The LoadResult of a finished shootout-load, wherever it ran."""
    if done.returncode != 0:
        raise DriverError(f"shootout-load exited with {done.returncode}: {done.stderr.strip()[-500:]}")
    try:
        data = json.loads(done.stdout)
    except ValueError as exc:
        raise DriverError(f"shootout-load printed no JSON ({exc}): {done.stdout[:300]!r}") from None
    return parse(data)


def run(spec: LoadSpec, log: Path | None = None) -> LoadResult:
    launched = time.monotonic()
    done, _ = run_tool(argv(spec, str(binary())), spec.cpus, allowance(spec), log)
    result = negotiated("shootout-load", spec, result_of(done))
    if result.window_start_s is None:
        return result
    # Off by the few milliseconds taskset and the binary take to start, against a window of seconds.
    opened = launched + result.window_start_s
    return replace(result, window=(opened, opened + result.duration_s))
