"""ab (ApacheBench) driver: percentiles from its -e CSV, totals from its `Key: value` summary lines."""

from __future__ import annotations

import csv
import io
import tempfile
from pathlib import Path

from .base import DriverError, LoadResult, LoadSpec, connects_inside, errors_of, run_tool

_POINTS = {"p50": 50, "p75": 75, "p90": 90, "p99": 99}
# ab 2.3's test(): its clock starts, then start_connect() opens all -c connections at once, each sending its
# request when its connect completes.
HOW_IT_CONNECTS = ("ab starts its clock, then opens all its connections at once, each sending as soon as it is "
                   "open")


def parse_percentiles(text: str) -> dict[str, float | None]:
    """ab's -e CSV: 'Percentage served,Time in ms' then one row per percent 0..100."""
    rows: dict[int, float] = {}
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if not header or not header[0].lower().startswith("percentage"):
        raise DriverError(f"ab's percentile CSV has no header: {text[:200]!r}")
    for row in reader:
        if len(row) != 2:
            continue
        try:
            rows[int(float(row[0]))] = float(row[1]) * 1000.0
        except ValueError:
            raise DriverError(f"ab's percentile CSV has a bad row: {row!r}") from None
    if 100 not in rows or 50 not in rows:
        raise DriverError(f"ab's percentile CSV lacks rows 50 and 100: {sorted(rows)[:5]}...")
    latency: dict[str, float | None] = {key: rows[point] for key, point in _POINTS.items()}
    # ab resolves whole percents only: finer points and the spread are not available.
    latency.update(p99_9=None, p99_99=None, max=rows[100], mean=None, stdev=None)
    return latency


def parse_summary(text: str) -> dict[str, str]:
    """The `Name:   value` lines of ab's report, as a mapping (first occurrence wins)."""
    fields: dict[str, str] = {}
    for line in text.splitlines():
        name, sep, value = line.partition(":")
        if sep and name and not name.startswith(" ") and value.strip():
            fields.setdefault(name.strip(), value.strip())
    return fields


def _number(fields: dict[str, str], name: str, default: str | None = None) -> float:
    raw = fields.get(name, default)
    if raw is None:
        raise DriverError(f"ab's report has no {name!r} line")
    try:
        return float(raw.split()[0])
    except (ValueError, IndexError):
        raise DriverError(f"ab's {name!r} is not a number: {raw!r}") from None


def parse(summary: str, percentiles: str, client_cpu_s: float, sessions_requested: bool,
          keepalive: bool = True) -> LoadResult:
    fields = parse_summary(summary)
    requests = int(_number(fields, "Complete requests"))
    duration = _number(fields, "Time taken for tests")
    failed = int(_number(fields, "Failed requests"))
    non_2xx = int(_number(fields, "Non-2xx responses", "0"))
    latency = parse_percentiles(percentiles)
    latency["mean"] = _number(fields, "Time per request") * 1000.0 if "Time per request" in fields else None
    notes = ("cookieless: ab keeps no cookies, every request is a new visitor",) if sessions_requested else ()
    # ab's "Failed requests" mixes connect, receive, length and exception failures; length failures are
    # responses whose size differs from the first, i.e. a validation problem of sorts.
    return LoadResult(driver="ab", requests=requests,
                      duration_s=duration, rps=requests / duration if duration > 0 else 0.0,
                      bytes_read=int(_number(fields, "Total transferred", "0")), latency_us=latency,
                      errors=errors_of(read=failed, status=non_2xx), client_cpu_s=client_cpu_s,
                      validated=False, sessions=False, notes=notes, keepalive=keepalive)


def argv(spec: LoadSpec, csv_path: Path) -> list[str]:
    """ab's command line; without -k it opens a connection per request, its "Total" times include the connect."""
    spec.require_closed_loop("ab")
    spec.require_cleartext_http1("ab")
    keepalive = ["-k"] if spec.keepalive else []
    return ["ab", "-q", *keepalive, "-c", str(spec.connections), "-t", f"{max(1, round(spec.duration))}",
            "-n", "100000000", "-s", f"{max(1, round(spec.timeout))}", "-e", str(csv_path), spec.url]


def run(spec: LoadSpec, log: Path | None = None) -> LoadResult:
    if spec.target.websocket_message is not None:
        raise DriverError("ab cannot drive WebSocket workloads")
    spec.require_plain_get("ab")
    with tempfile.TemporaryDirectory(prefix="ab-") as tmp:
        csv_path = Path(tmp) / "percentiles.csv"
        done, cpu = run_tool(argv(spec, csv_path), spec.cpus, spec.duration + 60, log)
        if done.returncode != 0 or not csv_path.exists():
            raise DriverError(f"ab exited with {done.returncode}: {(done.stderr or done.stdout).strip()[-500:]}")
        result = parse(done.stdout, csv_path.read_text(), cpu, spec.target.sessions, spec.keepalive)
    return connects_inside(result, spec, HOW_IT_CONNECTS)
