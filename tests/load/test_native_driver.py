import json
import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler
from pathlib import Path

import jsonschema
import pytest

from schemas import assert_valid_lines
from hello import Hello, Serving
from webshootout.load import native
from webshootout.load.base import ERROR_KINDS, LATENCY_KEYS, DriverError, LoadSpec
from webshootout.config.profiles import Burst
from webshootout.workloads import Target

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((ROOT / "schemas" / "shootout-load.schema.json").read_text())


def fixture(fixture_root) -> dict:
    return json.loads((fixture_root / "drivers" / "shootout-load.json").read_text())


def spec(target: Target, **kw) -> LoadSpec:
    return LoadSpec("127.0.0.1", kw.pop("port", 8080), target, connections=kw.pop("connections", 8), threads=2,
                    duration=kw.pop("duration", 3.0), cpus=(0,), **kw)


def test_captured_output_matches_the_schema(fixture_root):
    jsonschema.validate(fixture(fixture_root), SCHEMA)


def test_schema_rejects_a_missing_field(fixture_root):
    data = fixture(fixture_root)
    del data["histogram"]
    with pytest.raises(jsonschema.ValidationError, match="histogram"):
        jsonschema.validate(data, SCHEMA)


def test_result_carries_everything_the_report_reads(fixture_root):
    data = fixture(fixture_root)
    result = native.parse({**data, "client_cpu_s": 0.5})
    assert result.driver == "native" and result.requests == data["requests"] and result.validated
    assert set(result.latency_us) == set(LATENCY_KEYS) == set(result.service_time_us)
    assert set(result.errors) == set(ERROR_KINDS)
    assert result.mode == "open" and result.target_rate == data["target_rate"]
    assert sum(count for _, count in result.latency_histogram) == result.requests
    assert [s["second"] for s in result.timeline] == list(range(len(data["timeline"])))
    line = result.to_dict()
    assert line["latency_histogram"][0] == list(data["histogram"][0]) and line["client_cpu_s"] == 0.5


def test_rate_below_target_is_noted(fixture_root):
    data = {**fixture(fixture_root), "rate_kept": False}
    assert "below target" in native.parse(data).notes[0]


def test_bad_output_is_a_clear_error(fixture_root):
    data = fixture(fixture_root)
    del data["service_time_us"]
    with pytest.raises(DriverError, match="service_time_us"):
        native.parse(data)


def test_targets_become_flags():
    session = native.argv(spec(Target("/session", sessions=True, expect_counter=True)))
    assert "--sessions" in session and "--expect-counter" in session and session[-1] == "http://127.0.0.1:8080/session"
    regex = native.argv(spec(Target("/db", expect_body_regex=r"^\{.*\}$"), rate=500.0))
    assert regex[regex.index("--expect-body-regex") + 1] == r"^\{.*\}$" and regex[regex.index("--rate") + 1] == "500"
    ws = native.argv(spec(Target("/ws", websocket_message="hi")))
    assert ws[-4:] == ["--websocket", "--message", "hi", "ws://127.0.0.1:8080/ws"]
    plain = native.argv(spec(Target("/p", expect_body="x"), connections=1))
    assert plain[plain.index("-t") + 1] == "1" and "--sessions" not in plain
    burst = native.argv(spec(Target("/p"), connections=2, burst=Burst((2, 50), 2.5)))
    assert burst[burst.index("--burst") + 1] == "2,50" and burst[burst.index("--step") + 1] == "2.5s"
    assert "--warmup" not in plain and "--pipeline" not in plain and "--no-keepalive" not in plain
    grpc = native.argv(spec(Target("/webshootout.Bench/Sum", method="POST", grpc='{"calls":[]}'), http="2"))
    assert grpc[-3:] == ["--grpc", '{"calls":[]}', "http://127.0.0.1:8080/webshootout.Bench/Sum"]
    assert "--method" not in grpc and "--expect-status" not in grpc and grpc[grpc.index("--http") + 1] == "2"


def test_warmup_pipelining_and_connection_per_request_become_flags():
    args = native.argv(spec(Target("/p"), warmup=1.5, pipeline=16))
    assert args[args.index("--warmup") + 1] == "1.5s" and args[args.index("--pipeline") + 1] == "16"
    assert "--no-keepalive" in native.argv(spec(Target("/p"), keepalive=False))
    steady = native.argv(spec(Target("/p"), warmup=30.0, warmup_steady=3.0))
    assert steady[steady.index("--warmup") + 1] == "30s" and steady[steady.index("--warmup-steady") + 1] == "3"
    assert "--warmup-steady" not in args


def test_the_connect_phase_is_asked_for_and_read_into_the_trial_line(fixture_root):
    args = native.argv(spec(Target("/p")))
    assert args[args.index("--connect-deadline") + 1] == "60s" and args[args.index("--connect-min") + 1] == "1"
    assert native.allowance(spec(Target("/p"), connect_deadline=30.0)) == 30.0 + 3.0 + 5.0 + 60
    phase = {"connections": 8, "opened": 8, "seconds": 0.5, "per_second": 16.0, "complete": True, "deadline_s": 60.0,
             "in_progress": 64, "refused": 1, "timed_out": 0, "failed": 0, "retried": 1, "syn_retransmitted": 2}
    data = {**fixture(fixture_root), "connect_s": 0.5, "connect": phase}
    jsonschema.validate(data, SCHEMA)
    result = native.parse(data)
    assert result.connect == phase and native.parse(fixture(fixture_root)).connect is None
    line = {"schema": 1, "kind": "trial", "framework": "x", "display": "X", "language": "c", "workload": "plaintext",
            "part": "p", "point": "c=8", "profile": "closed", "connections": 8, "trial": 1,
            "time": "2026-01-01T00:00:00+00:00", **result.to_dict(), "client_cpu_percent": 1.0,
            "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0, "server_rss_mean_mb": 9.0, "flags": []}
    assert_valid_lines([line])
    with pytest.raises(jsonschema.ValidationError, match="opened"):
        assert_valid_lines([{**line, "connect": {k: v for k, v in phase.items() if k != "opened"}}])


def test_bad_spec_values_are_named():
    with pytest.raises(ValueError, match="LoadSpec.pipeline.*0"):
        spec(Target("/p"), pipeline=0)
    with pytest.raises(ValueError, match="LoadSpec.warmup.*nan"):
        spec(Target("/p"), warmup=float("nan"))
    with pytest.raises(ValueError, match="LoadSpec.warmup_steady.*0"):
        spec(Target("/p"), warmup=5.0, warmup_steady=0.0)
    with pytest.raises(ValueError, match="LoadSpec.warmup \\(its cap\\).*0.5"):
        spec(Target("/p"), warmup=0.5, warmup_steady=3.0)


def test_new_fields_are_read_and_older_output_still_parses(fixture_root):
    data = {**fixture(fixture_root), "responses_total": 4100, "unfinished": 3, "connect_s": 0.25, "keepalive": False,
            "warmup_s": 4.05, "warmup_curve": [900, 2000, 2050, 2010], "window_start_s": 4.05,
            "io": "epoll", "io_fallback": "io_uring_setup: Operation not permitted"}
    jsonschema.validate(data, SCHEMA)
    result = native.parse(data)
    assert (result.responses_total, result.connect_s, result.keepalive, result.io) == (4100, 0.25, False, "epoll")
    assert (result.warmup_s, result.warmup_curve, result.window_start_s) == (4.05, [900, 2000, 2050, 2010], 4.05)
    older = native.parse(fixture(fixture_root))
    assert (older.responses_total, older.connect_s, older.keepalive) == (None, None, True)
    assert (older.warmup_s, older.warmup_curve, older.window_start_s, older.io) == (None, None, None, None)


def test_missing_binary_is_a_clear_error(monkeypatch, tmp_path):
    monkeypatch.setenv(native.BINARY_ENV, str(tmp_path / "nope"))
    with pytest.raises(DriverError, match="cargo build --release -p shootout-load"):
        native.binary()


class _Counter(BaseHTTPRequestHandler):
    """Counts per visitor cookie, like the session workload."""

    protocol_version = "HTTP/1.1"
    counts: dict[str, int] = {}
    lock = threading.Lock()

    def do_GET(self):  # noqa: N802 - the http.server hook name
        sid = (self.headers.get("Cookie") or "").partition("sid=")[2].split(";")[0]
        with self.lock:
            fresh = not sid
            sid = sid or str(len(self.counts) + 1)
            self.counts[sid] = self.counts.get(sid, 0) + 1
            body = f"Count is {self.counts[sid]}".encode()
        self.send_response(200)
        if fresh:
            self.send_header("Set-Cookie", f"sid={sid}; Path=/")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def _built() -> Path:
    """The binary the driver would run (SHOOTOUT_LOAD or target/release); skips the test if there is none."""
    try:
        return native.binary()
    except DriverError as exc:
        pytest.skip(str(exc))


def _run(port: int, target: Target, **kw):
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    return native.run(LoadSpec("127.0.0.1", port, target, connections=kw.pop("connections", 4), threads=1,
                               duration=1.0, cpus=cpus, **kw))


def test_real_run_against_a_session_server():
    _built()
    with Serving(_Counter) as serving:
        launched = time.monotonic()
        result = _run(serving.port, Target("/s", sessions=True, expect_counter=True), warmup=0.2)
        returned = time.monotonic()
    assert result.requests > 20 and sum(result.errors.values()) == 0, result.errors
    assert result.sessions and result.validated and result.keepalive
    assert result.status_counts == {"200": result.requests} and result.responses_total == result.requests
    # The measured window's CPU, as shootout-load reports it: less than the run's wall time allows.
    assert 0 < result.client_cpu_s < result.duration_s and result.connect_s is not None and result.connect_s > 0
    assert result.connect["opened"] == 4 and result.connect["seconds"] == result.connect_s
    # 0.2 s of warm-up holds no whole second for the curve.
    assert result.warmup_s is not None and result.warmup_s >= 0.2 and result.warmup_curve == []
    # The window on this process's clock, for the samplers: after the warm-up, as long as the trial, in the run.
    assert result.window_start_s == result.warmup_s and "window" not in result.to_dict()
    opened, closed = result.window
    assert launched + 0.2 <= opened and closed == pytest.approx(opened + 1.0) and closed <= returned


def test_real_run_with_a_connection_per_request():
    _built()
    Hello.connections = 0
    with Serving(Hello) as serving:
        result = _run(serving.port, Target("/", expect_body="Hello, World!"), connections=2, keepalive=False)
    assert not result.keepalive and sum(result.errors.values()) == 0, result.errors
    # Every request had its own connection: at least as many as the answers counted in the window.
    assert result.requests > 20 and Hello.connections >= result.requests


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_binary_exits_with_a_named_error_on_bad_flags():
    done = subprocess.run([str(_built()), "-H", "nocolon", f"http://127.0.0.1:{_closed_port()}/"],
                          capture_output=True, text=True, timeout=10)
    assert done.returncode == 2 and "nocolon" in done.stderr


def test_output_of_a_server_that_never_answers_still_matches_the_schema():
    # A socket that listens and never accepts: the kernel completes the connects, nothing ever answers.
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        done = subprocess.run([str(_built()), "--json", "-c", "2", "-t", "1", "-d", "300ms", "-R", "100",
                               f"http://127.0.0.1:{silent.getsockname()[1]}/"], capture_output=True, text=True,
                              timeout=10)
    data = json.loads(done.stdout)
    jsonschema.validate(data, SCHEMA)
    assert data["requests"] == 0 and data["service_time_us"]["p99"] is not None
    assert data["connect"]["opened"] == 2 and sum(data["errors"].values()) == 0
    # The 30 requests due in the window were sent on the two connections or never: all are in the latency at
    # their age at its end.
    assert data["unfinished"] >= 25 and data["latency_us"]["max"] >= 250_000
    assert data["rate_kept"] is False and "BELOW 99 %" in done.stderr


def test_nobody_listening_fails_after_the_connect_deadline():
    spec = LoadSpec("127.0.0.1", _closed_port(), Target("/"), connections=2, threads=1, duration=0.3,
                    cpus=tuple(sorted(os.sched_getaffinity(0))), connect_deadline=0.5)
    _built()
    with pytest.raises(DriverError, match="only 0 of 2 connections opened within the 0.5s connect deadline.*refused"):
        native.run(spec)


def test_trial_line_with_native_fields_is_valid(fixture_root):
    result = native.parse(fixture(fixture_root))
    line = {"schema": 1, "kind": "trial", "framework": "x", "display": "X", "language": "c", "workload": "plaintext",
            "part": "plaintext", "point": "rate 2000", "profile": "open", "connections": 16, "trial": 1, "time": "2026-01-01T00:00:00+00:00", **result.to_dict(),
            "client_cpu_percent": 1.0, "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0,
            "server_rss_mean_mb": 9.0, "flags": []}
    assert_valid_lines([line])
    line["latency_histogram"] = [[1, 2, 3]]
    with pytest.raises(jsonschema.ValidationError):
        assert_valid_lines([line])


TLS_H2 = {"http": "2", "streams": 10, "tls": {"version": "TLSv1_3", "cipher": "TLS13_AES_128_GCM_SHA256",
                                              "alpn": "h2", "handshakes": 8, "resumed": 0,
                                              "handshake_ms": {"mean": 1.5, "p50": 1.2, "p99": 4.0, "max": 4.5}}}


def test_transport_becomes_flags_and_every_connection_a_full_handshake():
    args = native.argv(spec(Target("/p"), tls_ca=Path("/run/ca.pem"), http="2", streams=10))
    assert args[args.index("--ca") + 1] == "/run/ca.pem" and "--tls" in args and "--tls-resume" not in args
    assert args[args.index("--http") + 1] == "2" and args[args.index("--streams") + 1] == "10"
    assert args[-1] == "https://127.0.0.1:8080/p"
    clear = native.argv(spec(Target("/p")))
    assert not {"--tls", "--ca", "--http", "--streams"} & set(clear) and clear[-1].startswith("http://")
    wss = native.argv(spec(Target("/ws", websocket_message="hi"), tls_ca=Path("ca.pem")))
    assert wss[-1] == "wss://127.0.0.1:8080/ws"
    with pytest.raises(ValueError, match="LoadSpec.streams.*HTTP/1.1"):
        spec(Target("/p"), streams=4)


def test_the_negotiated_transport_is_read_into_the_trial_line(fixture_root):
    result = native.parse({**fixture(fixture_root), "transport": TLS_H2})
    assert result.transport == TLS_H2 and result.to_dict()["transport"] == TLS_H2
    assert native.parse(fixture(fixture_root)).transport is None  # a build from before TLS
    line = {"schema": 1, "kind": "trial", "framework": "x", "display": "X", "language": "c", "workload": "plaintext",
            "part": "p", "point": "c=8 tls h2 streams=10", "profile": "closed", "connections": 8, "trial": 1,
            "time": "2026-01-01T00:00:00+00:00", **result.to_dict(), "client_cpu_percent": 1.0,
            "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0, "server_rss_mean_mb": 9.0, "flags": []}
    assert_valid_lines([line])


@pytest.mark.parametrize("kw, got, message", [
    (dict(tls_ca=Path("ca.pem"), http="2"), {**TLS_H2, "http": "1.1", "tls": {**TLS_H2["tls"], "alpn": "http/1.1"}},
     r"asked for h2\+tls but shootout-load ran HTTP/1.1 over TLSv1_3 with ALPN http/1.1"),
    (dict(tls_ca=Path("ca.pem")), {**TLS_H2, "http": "1.1", "tls": None}, r"asked for h1\+tls .* over cleartext"),
    (dict(http="2"), {**TLS_H2, "http": "1.1", "tls": None}, r"asked for h2c but"),
    (dict(tls_ca=Path("ca.pem"), http="2"), None, "did not say what it negotiated for a h2\\+tls point"),
])
def test_a_load_over_another_transport_than_the_points_is_a_driver_error(fixture_root, kw, got, message):
    result = native.parse({**fixture(fixture_root), "transport": got})
    with pytest.raises(DriverError, match=message):
        native.negotiated("shootout-load", spec(Target("/p"), **kw), result)


def test_http1_over_tls_without_alpn_is_http1(fixture_root):
    got = {**TLS_H2, "http": "1.1", "streams": 1, "tls": {**TLS_H2["tls"], "alpn": None}}
    result = native.parse({**fixture(fixture_root), "transport": got})
    assert native.negotiated("shootout-load", spec(Target("/p"), tls_ca=Path("ca.pem")), result) is result
