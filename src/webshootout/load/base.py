"""The driver interface: a LoadSpec in, one LoadResult out, whatever tool produced the load."""

from __future__ import annotations

import dataclasses
import resource
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from ..config.profiles import HTTP1, HTTP2, Burst
from ..workloads import Target

PERCENTILES = ("p50", "p75", "p90", "p99", "p99_9", "p99_99")
LATENCY_KEYS = (*PERCENTILES, "max", "mean", "stdev")
ERROR_KINDS = ("connect", "read", "write", "timeout", "status", "validation", "parse")
# The connect phase (shootout-load opens every connection before the first request): how long it may take,
# and the share of the connections that must be open then for the point to run with those (else it fails).
# A server that holds fewer than asked is measured with those it holds, its row flagged and unranked: how
# many a stack holds is a result (Tomcat's max-connections 8,192 at 16,384), not a fault. Under 1 % the
# machine, not the server, is what failed (ports, descriptors).
CONNECT_DEADLINE = 60.0
CONNECT_MIN_PERCENT = 1.0
# From this many connections a point's connect phase is worth a line of its own (report, wrk and ab notes).
MANY_CONNECTIONS = 1000
CONNECT_PHASE_KEYS = ("connections", "opened", "seconds", "per_second", "complete", "deadline_s", "in_progress",
                      "refused", "timed_out", "failed", "retried", "syn_retransmitted")


class DriverError(RuntimeError):
    """The load tool failed or printed something we cannot read; the message says which and why."""


@dataclass(frozen=True)
class LoadSpec:
    host: str
    port: int
    target: Target
    connections: int
    threads: int
    duration: float
    cpus: tuple[int, ...]
    timeout: float = 5.0
    rate: float | None = None  # open loop at this many requests/s in total; None: closed loop
    burst: Burst | None = None  # concurrency steps during one run (closed loop)
    warmup: float = 0.0  # seconds of load before the measured window, in the same run (native only)
    keepalive: bool = True  # False: a new TCP connection for every request, its connect in the latency
    # Kept connections closed by the client after this many answers and opened again (native only); None: kept.
    requests_per_connection: int | None = None
    pipeline: int = 1  # requests in flight per connection (HTTP/1.1 pipelining; native only)
    # End the warm-up once the mean req/s of the last 3 seconds is within this % of the mean of the 3 before,
    # up or down (throughput holds its level); `warmup` is then its cap (native only). None: it lasts `warmup`.
    warmup_steady: float | None = None
    connect_deadline: float = CONNECT_DEADLINE  # native only: the connect phase ends at the latest after this
    connect_min_percent: float = CONNECT_MIN_PERCENT  # native only: open at the deadline, or the point fails
    tls_ca: Path | None = None  # over TLS, trusting this CA's certificate (PEM); None: cleartext
    http: str = HTTP1  # HTTP2: by ALPN over TLS, with prior knowledge (h2c) on cleartext
    streams: int = 1  # concurrent requests per HTTP/2 connection

    def __post_init__(self) -> None:
        if self.http not in (HTTP1, HTTP2):
            raise ValueError(f"LoadSpec.http: expected {HTTP1!r} or {HTTP2!r}, got {self.http!r}")
        if self.streams != 1 and not (self.http == HTTP2 and isinstance(self.streams, int) and self.streams > 1):
            raise ValueError(f"LoadSpec.streams: expected a whole number of at least 1, and 1 unless HTTP/2, got "
                             f"{self.streams!r} with HTTP/{self.http}")
        if not (isinstance(self.pipeline, int) and self.pipeline >= 1):
            raise ValueError(f"LoadSpec.pipeline: expected a whole number of at least 1, got {self.pipeline!r}")
        if not 0 <= self.warmup < float("inf"):
            raise ValueError(f"LoadSpec.warmup: expected a finite number of seconds >= 0, got {self.warmup!r}")
        if self.warmup_steady is not None:
            if not 0 < self.warmup_steady < 100:
                raise ValueError(f"LoadSpec.warmup_steady: expected a percentage above 0 and below 100, "
                                 f"got {self.warmup_steady!r}")
            if self.warmup < 1:
                raise ValueError(f"LoadSpec.warmup_steady needs LoadSpec.warmup (its cap) of at least 1 s, "
                                 f"got {self.warmup!r}")

    @property
    def transport(self) -> str:
        """As Point.transport: h1, h1+tls, h2c or h2+tls."""
        if self.http == HTTP2:
            return "h2+tls" if self.tls_ca else "h2c"
        return "h1+tls" if self.tls_ca else "h1"

    def require_cleartext_http1(self, tool: str) -> None:
        """wrk and ab: TLS and HTTP/2 points go to the drivers that verify the certificate and speak HTTP/2."""
        if self.transport != "h1":
            raise DriverError(f"{tool} drives cleartext HTTP/1.1 only, not {self.transport}; use --driver native "
                              f"or h2load")

    def require_plain_get(self, tool: str) -> None:
        """What only shootout-load sends or checks: refused rather than measured as something else."""
        target = self.target
        if (target.method != "GET" or target.body_bytes is not None or target.headers or target.expect_encoding
                or target.mix or target.grpc):
            raise DriverError(f"{tool} sends plain GETs here: request bodies, extra headers, compressed answers, "
                              f"mixes of requests and gRPC calls need --driver native")
        if self.requests_per_connection is not None:
            raise DriverError(f"{tool} cannot close a connection after N requests; use --driver native")

    def require_closed_loop(self, tool: str) -> None:
        """wrk and ab only keep a fixed number of connections busy: refuse what they would silently ignore."""
        if self.rate is not None or self.burst is not None:
            raise DriverError(f"{tool} cannot run open-loop rates or bursts; use --driver native")
        if self.pipeline > 1:
            raise DriverError(f"{tool} cannot pipeline requests (pipeline = {self.pipeline}); use --driver native")

    @property
    def url(self) -> str:
        scheme = "https" if self.tls_ca else "http"
        return f"{scheme}://{self.host}:{self.port}{self.target.path}"


@dataclass(frozen=True)
class LoadResult:
    driver: str
    requests: int
    duration_s: float
    rps: float
    bytes_read: int
    latency_us: dict[str, float | None]
    errors: dict[str, int]
    client_cpu_s: float
    validated: bool  # whether response bodies were checked during the load
    sessions: bool  # whether each connection kept its visitor's cookie
    status_counts: dict[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    # Only drivers that know them fill these in (native); wrk and ab leave None.
    service_time_us: dict[str, float | None] | None = None  # from the actual send; latency_us from the intended
    mode: str | None = None  # "closed" or "open"
    target_rate: float | None = None
    achieved_rate: float | None = None
    timeline: list[dict] | None = None  # per second: second, requests, errors, p99_us
    latency_histogram: list[list[int]] | None = None  # [value_us, count] per non-empty HDR bucket, mergeable
    connect_s: float | None = None  # time to open every connection, outside the measured window
    responses_total: int | None = None  # every answer, valid or not; `requests` counts the valid ones
    keepalive: bool = True  # False: the load opened a new connection for every request
    # Kept connections closed after this many answers and opened again (native only), and how often in the window.
    requests_per_connection: int | None = None
    reconnects: int | None = None
    # A mix of requests (native only): per step, its name, sent/done/failed/unanswered over the whole run, and
    # requests, errors and latency_us in the window.
    mix: list[dict] | None = None
    warmup_s: float | None = None  # start to measured window (connects included), when there was a warm-up
    warmup_curve: list[int] | None = None  # valid answers in each whole second of the warm-up (req/s)
    window_start_s: float | None = None  # from the tool's start until the measured window opened
    # The connect phase (native, keep-alive): every connection opened before the first request, counted apart
    # from the requests (CONNECT_PHASE_KEYS). None where the driver cannot separate it (wrk, ab) or there is
    # none (a connection per request, whose connect is part of each request).
    connect: dict | None = None
    io: str | None = None  # shootout-load's I/O path: "io_uring", or "epoll" where the ring is not to be had
    # What was negotiated (native, h2load): {"http": "1.1"|"2", "streams": n, "tls": null or {version, cipher,
    # alpn, handshakes, resumed, handshake_ms}} (docs/method.md, Transport); None where the driver cannot tell.
    transport: dict | None = None
    # The measured window on this process's time.monotonic() clock, where the driver knows it (the load ran
    # here); samplers then take the window's share. Not recorded: it means nothing outside this process.
    window: tuple[float, float] | None = None

    def to_dict(self) -> dict:
        data = asdict(self)
        data["notes"] = list(self.notes)
        del data["window"]
        return data


def request_errors(errors: dict[str, int], keepalive: bool = True) -> int:
    """A trial's failed requests: every error but a failed connect, which on kept connections is the opening's,
    not a request's; with a connection per request the connect is the request's own."""
    return sum(count for kind, count in errors.items() if keepalive is False or kind != "connect")


def connects_inside(result: LoadResult, spec: LoadSpec, how: str) -> LoadResult:
    """A driver that opens its connections inside its measured time: at a point with many connections its
    result says how (`how`), and that its connect phase cannot be told apart from the requests."""
    if spec.connections < MANY_CONNECTIONS:
        return result
    note = (f"connects not separated: {how}; its failed connects count as connect errors, and the time they "
            f"took is inside the measured window")
    return dataclasses.replace(result, notes=(*result.notes, note))


def negotiated(tool: str, spec: LoadSpec, result: LoadResult) -> LoadResult:
    """The result, when the load ran over the transport the point asked for; else DriverError saying what it got.

    Over TLS, HTTP/1.1 may come with ALPN null: a server that offers no ALPN speaks HTTP/1.1."""
    got = result.transport
    if got is None:
        if spec.transport == "h1":
            return result
        raise DriverError(f"{tool} did not say what it negotiated for a {spec.transport} point (a shootout-load "
                          f"built before TLS and HTTP/2: cargo build --release -p shootout-load)")
    tls = got["tls"]
    alpn = None if tls is None else tls["alpn"]
    wanted_alpn = {HTTP1: ("http/1.1", None), HTTP2: ("h2",)}[spec.http]
    if got["http"] != spec.http or (tls is None) != (spec.tls_ca is None) or (tls and alpn not in wanted_alpn):
        over = "cleartext" if tls is None else f"{tls['version']} with ALPN {alpn}"
        raise DriverError(f"the point asked for {spec.transport} but {tool} ran HTTP/{got['http']} over {over}")
    return result


def errors_of(**counts: int) -> dict[str, int]:
    unknown = set(counts) - set(ERROR_KINDS)
    if unknown:
        raise ValueError(f"unknown error kinds {sorted(unknown)}")
    return {kind: int(counts.get(kind, 0)) for kind in ERROR_KINDS}


def run_tool(argv: list[str], cpus: tuple[int, ...], timeout: float, log: Path | None = None,
             env: dict | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """Runs a load tool pinned to cpus; returns its result and the CPU seconds it used."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.monotonic()
    try:
        done = subprocess.run(["taskset", "-c", ",".join(map(str, cpus)), *argv], capture_output=True,
                              text=True, timeout=timeout, env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        raise DriverError(f"{argv[0]} did not finish within {timeout:.0f}s "
                          f"(started {time.monotonic() - started:.0f}s ago)") from None
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if log is not None:
        with log.open("a") as out:
            out.write(f"$ {' '.join(argv)}\n{done.stdout}{done.stderr}\n")
    return done, cpu
