"""h2load driver (Debian's nghttp2-client): an independent HTTP/2 and TLS client to hold shootout-load's figures
against. Totals and the negotiated protocol come from its report; latency from its --log-file, one line per
request of the measured window (the report gives no percentiles)."""

from __future__ import annotations

import math
import re
import tempfile
from pathlib import Path

from .base import (HTTP2, LATENCY_KEYS, DriverError, LoadResult, LoadSpec, connects_inside, errors_of, negotiated,
                   run_tool)

# h2load 1.52's Client::connect for every client of a thread when the run starts; its clock starts with it,
# so without a warm-up the connects (and TLS handshakes) fall inside the measured time.
HOW_IT_CONNECTS = "h2load starts every client's connect when its clock starts, handshakes included"
NO_VERIFY = "h2load does not verify the server's certificate (it has no option for a CA)"
_TOTALS = re.compile(r"^requests: (\d+) total, (\d+) started, (\d+) done, (\d+) succeeded, (\d+) failed, "
                     r"(\d+) errored, (\d+) timeout$", re.M)
_TRAFFIC = re.compile(r"^traffic: \S+ \((\d+)\) total", re.M)
_PERCENTILES = {"p50": 50.0, "p75": 75.0, "p90": 90.0, "p99": 99.0, "p99_9": 99.9, "p99_99": 99.99}


def refuse(spec: LoadSpec) -> None:
    """What h2load cannot do, refused rather than silently measured another way."""
    if spec.target.websocket_message is not None:
        raise DriverError("h2load cannot drive WebSocket workloads")
    spec.require_closed_loop("h2load")
    spec.require_plain_get("h2load")
    if spec.target.sessions:
        raise DriverError("h2load keeps no cookies, so it cannot drive sessions; use --driver native")
    if not spec.keepalive:
        raise DriverError("h2load keeps its connections open: a connection per request (keepalive off) needs "
                          "--driver native")


def argv(spec: LoadSpec, log_file: Path) -> list[str]:
    """h2load's command line: HTTP/1.1 forced by --h1, HTTP/2 over TLS offered alone by ALPN (as shootout-load
    does), and h2c with prior knowledge, h2load's way with an http:// URL."""
    refuse(spec)
    if spec.http == HTTP2:
        protocol = ["--npn-list=h2"] if spec.tls_ca else []
        protocol += ["-m", str(spec.streams)]
    else:
        protocol = ["--h1"]
    args = ["h2load", "-c", str(max(spec.connections, spec.threads)),
            "-t", str(max(1, min(spec.threads, spec.connections))), "-D", f"{round(spec.duration * 1000)}ms",
            "--log-file", str(log_file), *protocol]
    if spec.warmup > 0:
        args += ["--warm-up-time", f"{round(spec.warmup * 1000)}ms"]
    return [*args, spec.url]


def _line(pattern: str, text: str) -> str | None:
    found = re.search(pattern, text, re.M)
    return found.group(1) if found else None


def transport(text: str, spec: LoadSpec) -> dict:
    """What h2load negotiated, in shootout-load's form; h2load counts no handshakes and times none apart."""
    if "No supported protocol was negotiated" in text:
        raise DriverError(f"the server selected no protocol h2load offered by ALPN (it offered only h2) at "
                          f"{spec.url}: it does not serve HTTP/2 over TLS")
    protocol = _line(r"^Application protocol: (\S+)$", text)
    version = _line(r"^TLS Protocol: (\S+)$", text)
    tls = None if version is None else {"version": version, "cipher": _line(r"^Cipher: (\S+)$", text),
                                        "alpn": protocol, "handshakes": None, "resumed": None, "handshake_ms": None}
    return {"http": HTTP2 if protocol in ("h2", "h2c") else "1.1", "streams": spec.streams, "tls": tls}


def latency(rows: list[tuple[int, int]]) -> dict[str, float | None]:
    """Nearest-rank percentiles, max, mean and stdev of the answered requests' microseconds (status, us) rows."""
    times = sorted(float(us) for status, us in rows if status >= 0)
    if not times:
        return dict.fromkeys(LATENCY_KEYS)
    found: dict[str, float | None] = {key: times[max(0, math.ceil(p / 100 * len(times)) - 1)]
                                      for key, p in _PERCENTILES.items()}
    mean = sum(times) / len(times)
    found.update(max=times[-1], mean=mean, stdev=math.sqrt(sum((t - mean) ** 2 for t in times) / len(times)))
    return found


def read_log(text: str) -> list[tuple[int, int]]:
    """(status, microseconds) per request of --log-file: start time, status (-1: failed stream), duration."""
    rows = []
    for number, line in enumerate(text.splitlines(), 1):
        fields = line.split("\t")
        try:
            rows.append((int(fields[1]), int(fields[2])))
        except (IndexError, ValueError):
            raise DriverError(f"h2load's log line {number} is not start, status, microseconds: {line!r}") from None
    return rows


def parse(text: str, rows: list[tuple[int, int]], client_cpu_s: float, spec: LoadSpec) -> LoadResult:
    negotiated_transport = transport(text, spec)
    totals, traffic = _TOTALS.search(text), _TRAFFIC.search(text)
    if totals is None or traffic is None:
        raise DriverError(f"h2load printed no {'requests' if totals is None else 'traffic'} line: {text[-500:]!r}")
    _total, started, _done, succeeded, failed, errored, timeout = map(int, totals.groups())
    if started == 0:
        raise DriverError(f"h2load sent no request to {spec.url}: it could not connect, or no connection "
                          f"negotiated a protocol it speaks")
    statuses: dict[str, int] = {}
    for status, _us in rows:
        if status >= 0:
            statuses[str(status)] = statuses.get(str(status), 0) + 1
    # h2load counts a timed-out stream as errored and an errored one as failed; failed ones else had a status
    # outside 2xx.
    errors = errors_of(status=failed - errored, read=errored - timeout, timeout=timeout)
    return LoadResult(driver="h2load", requests=succeeded, duration_s=spec.duration, rps=succeeded / spec.duration,
                      bytes_read=int(traffic.group(1)), latency_us=latency(rows), errors=errors,
                      client_cpu_s=client_cpu_s, validated=False, sessions=False, status_counts=statuses,
                      notes=(NO_VERIFY,) if spec.tls_ca else (), responses_total=succeeded + failed - errored,
                      transport=negotiated_transport)


def run(spec: LoadSpec, log: Path | None = None) -> LoadResult:
    with tempfile.TemporaryDirectory(prefix="h2load-") as tmp:
        log_file = Path(tmp) / "requests.tsv"
        done, cpu = run_tool(argv(spec, log_file), spec.cpus, spec.warmup + spec.duration + 60, log)
        if done.returncode != 0:
            raise DriverError(f"h2load exited with {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
        rows = read_log(log_file.read_text()) if log_file.exists() else []
    result = negotiated("h2load", spec, parse(done.stdout + done.stderr, rows, cpu, spec))
    return connects_inside(result, spec, HOW_IT_CONNECTS) if spec.warmup == 0 else result
