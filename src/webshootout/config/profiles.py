"""Load profiles: how each workload is driven, expanded into the load points a run measures."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from ..workloads import registry
from ..workloads.spec import Axis, AxisError, Workload, positive_ints

SLO_P99_MS = 10.0
BELOW_RATE = 0.99  # an open-loop trial that achieved less than this share of its target rate
AUTO = "auto"
HTTP1, HTTP2 = "1.1", "2"


# A profile value that makes no sense, a workload axis's included; the message names the field and the value.
ProfileError = AxisError


@dataclass(frozen=True)
class RateSweep:
    """Open-loop rates from `start` to `stop` in `steps` even steps; `auto` derives them from capacity."""

    start: float = 0.0
    stop: float = 0.0
    steps: int = 8
    auto: bool = False

    def rates(self, capacity: float | None = None) -> tuple[float, ...]:
        start, stop = (0.1 * capacity, 1.2 * capacity) if self.auto else (self.start, self.stop)
        if self.steps == 1:
            return (round(stop),)
        step = (stop - start) / (self.steps - 1)
        return tuple(max(1.0, round(start + i * step)) for i in range(self.steps))


@dataclass(frozen=True)
class Burst:
    """One run whose concurrency steps up: `steps` connections, each held for `step_seconds`."""

    steps: tuple[int, ...]
    step_seconds: float

    @property
    def duration(self) -> float:
        return self.step_seconds * len(self.steps)


@dataclass(frozen=True)
class Profile:
    connections: tuple[int, ...] = (64,)
    rates: tuple[float, ...] = ()  # open loop at each rate (per connection count)
    rate_sweep: RateSweep | None = None
    burst: Burst | None = None
    # A workload axis's values by its key where the suite or flags set them (else the axis's default), a point each.
    axes: dict[str, tuple] = field(default_factory=dict)
    websocket_rate: float | None = None  # messages per second in total; None: closed loop
    workers: int | None = None  # WORKERS for every server; None: one per server CPU
    slo_p99_ms: float = SLO_P99_MS
    keepalive_modes: tuple[bool, ...] = (True,)  # False: a new TCP connection for every request
    # Kept connections closed by the client after N answers and opened again, a point each; 0: kept all along.
    per_connection: tuple[int, ...] = (0,)
    pipeline: int = 1  # requests in flight per connection (HTTP/1.1 pipelining)
    # Transports, a point each: every TLS mode with every HTTP version (false and true with "1.1" and "2" are
    # h1, h2c, h1+tls and h2+tls); streams are per HTTP/2 connection, HTTP/2's analogue of pipelining.
    tls_modes: tuple[bool, ...] = (False,)
    http_versions: tuple[str, ...] = (HTTP1,)
    streams: int = 1

    def values(self, axis: Axis) -> tuple:
        return self.axes.get(axis.key, axis.default)


@dataclass(frozen=True)
class Point:
    """One load point of one workload: what the driver is told, and the label results are keyed by."""

    connections: int
    rate: float | None = None
    burst: Burst | None = None
    axis: Axis | None = None  # the workload's own parameter, if it has one, at `value`
    value: object = None
    keepalive: bool = True
    per_connection: int = 0  # answers after which the client closes a kept connection and opens another; 0: never
    pipeline: int = 1
    tls: bool = False
    http: str = HTTP1
    streams: int = 1  # concurrent requests per HTTP/2 connection

    @property
    def transport(self) -> str:
        """h1, h1+tls, h2c (HTTP/2 with prior knowledge on cleartext) or h2+tls."""
        if self.http == HTTP2:
            return "h2+tls" if self.tls else "h2c"
        return "h1+tls" if self.tls else "h1"

    def axis_fields(self) -> dict:
        """A trial line's field of each axis that has one: this point's value under its axis's key, else None."""
        return {key: self.value if self.axis is not None and self.axis.key == key else None
                for key, axis in registry.axes().items() if axis.in_trial_line}

    @property
    def mode(self) -> str:
        return "burst" if self.burst else ("open" if self.rate is not None else "closed")

    @property
    def label(self) -> str:
        if self.burst:
            parts = [f"burst {'>'.join(map(str, self.burst.steps))} x {self.burst.step_seconds:g}s"]
        else:
            parts = [f"c={self.connections}"]
            if self.rate is not None:
                parts.append(f"rate={self.rate:g}")
        word = self.axis.label(self.value) if self.axis else None
        if word:
            parts.append(word)
        if self.pipeline > 1:
            parts.append(f"pipeline={self.pipeline}")
        if not self.keepalive:
            parts.append("conn-per-request")
        if self.per_connection:
            parts.append(f"req/conn={self.per_connection}")
        # Cleartext HTTP/1.1 adds nothing, so the labels results were keyed by before TLS keep their meaning.
        if self.tls:
            parts.append("tls")
        if self.http == HTTP2:
            parts.append("h2" if self.tls else "h2c")
        if self.streams > 1:
            parts.append(f"streams={self.streams}")
        return " ".join(parts)


def points(profile: Profile, workload: str, capacity: float | None = None) -> list[Point]:
    """The load points of a workload. An automatic rate sweep needs `capacity` (req/s, closed loop)."""
    spec = registry.get(workload)
    variants: list[dict] = [{}]
    if spec.axis is not None:
        variants = [{"axis": spec.axis, "value": value} for value in profile.values(spec.axis)]
    rates = list(profile.rates)
    if profile.rate_sweep is not None and (not profile.rate_sweep.auto or capacity is not None):
        rates.extend(profile.rate_sweep.rates(capacity))
    if spec.messages and profile.websocket_rate is not None:
        rates = [profile.websocket_rate]
    if not spec.messages:  # an upgraded connection stays open and has no HTTP pipelining
        variants = [{**extra, "keepalive": keep, "pipeline": profile.pipeline}
                    for extra in variants for keep in profile.keepalive_modes]
        variants = [{**extra, "per_connection": n} for extra in variants
                    for n in (profile.per_connection if extra["keepalive"] else (0,))]
    variants = [{**extra, **transport} for extra in variants for transport in _transports(profile, spec)]
    found: list[Point] = []
    for extra in variants:
        if profile.burst is not None and not spec.messages:  # a burst replaces the steady points
            found.append(Point(profile.burst.steps[0], burst=profile.burst, **extra))
            continue
        for connections in profile.connections:
            if not rates:
                found.append(Point(connections, **extra))
            found.extend(Point(connections, rate=rate, **extra) for rate in rates)
    return found


def _transports(profile: Profile, spec: Workload) -> list[dict]:
    """The point fields of each transport the profile asks for; WebSocket is HTTP/1.1 only (over TLS: wss), as are
    the workloads shootout-load sends over HTTP/1.1 only. gRPC's calls go over HTTP/2 whatever the profile's
    HTTP versions: h2c in cleartext, h2 over TLS."""
    found = []
    for tls in profile.tls_modes:
        for http in ((HTTP2,) if spec.http2_only else profile.http_versions):
            if http == HTTP2 and spec.http1_only:
                continue
            found.append({"tls": tls, "http": http, "streams": profile.streams if http == HTTP2 else 1})
    return found


def needs_capacity(profile: Profile, workload: str) -> bool:
    return profile.rate_sweep is not None and profile.rate_sweep.auto and not registry.get(workload).messages


def sustainable_rate(points: list[tuple[float, float | None]], slo_p99_ms: float) -> float | None:
    """Highest achieved rate whose p99 (µs) stays under the SLO, over (achieved_rate, p99_us) pairs.

    A rate counts only if every lower rate also met the SLO: a pass above a failure is noise, not capacity.
    """
    best = None
    for rate, p99 in sorted(points):
        if p99 is None or p99 > slo_p99_ms * 1000:
            break
        best = rate
    return best


# -- parsing (suite files and flags share it) ---------------------------------------------------------------

def _positive_number(field: str, value) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value) or value <= 0:
        raise ProfileError(f"{field}: expected a finite number > 0, got {value!r}")
    return float(value)


def parse_rate_sweep(value) -> RateSweep:
    if value == AUTO:
        return RateSweep(auto=True)
    if not isinstance(value, dict) or set(value) - {"from", "to", "steps"} or not {"from", "to"} <= set(value):
        raise ProfileError(f"rate_sweep: expected \"auto\" or {{ from = R, to = R, steps = N }}, got {value!r}")
    sweep = RateSweep(_positive_number("rate_sweep.from", value["from"]),
                      _positive_number("rate_sweep.to", value["to"]),
                      positive_ints("rate_sweep.steps", value.get("steps", 8))[0])
    if sweep.stop < sweep.start:
        raise ProfileError(f"rate_sweep: `to` ({sweep.stop:g}) is below `from` ({sweep.start:g})")
    return sweep


def parse_burst(value) -> Burst:
    if not isinstance(value, dict) or set(value) - {"steps", "step_seconds"} or "steps" not in value:
        raise ProfileError(f"burst: expected {{ steps = [C, ...], step_seconds = S }}, got {value!r}")
    steps = positive_ints("burst.steps", value["steps"])
    if any(later <= earlier for earlier, later in zip(steps, steps[1:])):
        raise ProfileError(f"burst.steps: connection counts must rise from step to step, got {list(steps)}")
    return Burst(steps, _positive_number("burst.step_seconds", value.get("step_seconds", 5)))


def parse_keepalive(value) -> tuple[bool, ...]:
    modes = {True: (True,), False: (False,), "both": (True, False)}
    if not isinstance(value, (bool, str)) or value not in modes:
        raise ProfileError(f"keepalive: expected true, false or \"both\", got {value!r}")
    return modes[value]


def parse_per_connection(value) -> tuple[int, ...]:
    """Answers per kept connection, one point each: a whole number or a list of them, 0 for kept all along."""
    items = value if isinstance(value, list) else [value]
    if (not items or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 0 for v in items)
            or len(set(items)) < len(items)):
        raise ProfileError(f"requests_per_connection: expected a whole number of at least 0 (0: the connection is "
                           f"kept for the whole trial) or a list of distinct ones, got {value!r}")
    return tuple(items)


def parse_tls(value) -> tuple[bool, ...]:
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, bool) for v in items) or len(set(items)) < len(items):
        raise ProfileError(f"tls: expected true, false or a list of both, got {value!r}")
    return tuple(items)


def parse_http(value) -> tuple[str, ...]:
    """"1.1" and "2" (TOML numbers 1.1 and 2 too), or a list of them."""
    items = value if isinstance(value, list) else [value]
    names = {HTTP1: HTTP1, HTTP2: HTTP2, 1.1: HTTP1, 2: HTTP2}
    if (not items or any(isinstance(v, bool) or not isinstance(v, (str, int, float)) or v not in names
                         for v in items) or len({names[v] for v in items}) < len(items)):
        raise ProfileError(f"http: expected \"1.1\", \"2\" or a list of both, got {value!r}")
    return tuple(names[v] for v in items)


KEYS = ("connections", "rate", "rate_sweep", "burst", *registry.axes(), "websocket_rate", "workers", "slo_p99_ms",
        "keepalive", "requests_per_connection", "pipeline", "tls", "http", "streams")


def parse(table: dict, base: Profile = Profile()) -> Profile:
    """A profile from a suite table's keys (those in KEYS), over `base`."""
    fields = {}
    if "connections" in table:
        fields["connections"] = positive_ints("connections", table["connections"])
    if "rate" in table:
        rates = table["rate"] if isinstance(table["rate"], list) else [table["rate"]]
        fields["rates"] = tuple(_positive_number("rate", r) for r in rates)
    if "rate_sweep" in table:
        fields["rate_sweep"] = parse_rate_sweep(table["rate_sweep"])
    if "burst" in table:
        fields["burst"] = parse_burst(table["burst"])
    axes = {key: axis.parse(key, table[key]) for key, axis in registry.axes().items() if key in table}
    if axes:
        fields["axes"] = {**base.axes, **axes}
    if "websocket_rate" in table:
        fields["websocket_rate"] = _positive_number("websocket_rate", table["websocket_rate"])
    if "workers" in table:
        fields["workers"] = positive_ints("workers", table["workers"])[0]
    if "slo_p99_ms" in table:
        fields["slo_p99_ms"] = _positive_number("slo_p99_ms", table["slo_p99_ms"])
    if "keepalive" in table:
        fields["keepalive_modes"] = parse_keepalive(table["keepalive"])
    if "requests_per_connection" in table:
        fields["per_connection"] = parse_per_connection(table["requests_per_connection"])
    if "pipeline" in table:
        fields["pipeline"] = positive_ints("pipeline", table["pipeline"])[0]
    if "tls" in table:
        fields["tls_modes"] = parse_tls(table["tls"])
    if "http" in table:
        fields["http_versions"] = parse_http(table["http"])
        if HTTP2 not in fields["http_versions"] and "streams" not in table:
            fields["streams"] = 1  # streams shape HTTP/2 points only: --http 1.1 over a suite's need not undo them
    if "streams" in table:
        fields["streams"] = positive_ints("streams", table["streams"])[0]
    profile = Profile(**{**base.__dict__, **fields})
    _refuse_transport_mixes(profile)
    if False in profile.keepalive_modes and (profile.rates or profile.rate_sweep):
        raise ProfileError("keepalive: a connection per request is closed loop only (no rate or rate_sweep)")
    if False in profile.keepalive_modes and profile.pipeline > 1:
        raise ProfileError("keepalive: a connection per request cannot pipeline (pipeline > 1)")
    if any(profile.per_connection) and (profile.pipeline > 1 or profile.streams > 1):
        raise ProfileError("requests_per_connection: a connection closed after N answers has one request in "
                           "flight at a time (no pipeline or streams above 1)")
    return profile


def _refuse_transport_mixes(profile: Profile) -> None:
    http2 = HTTP2 in profile.http_versions
    if profile.streams > 1 and not http2:
        raise ProfileError(f"streams: {profile.streams} concurrent streams need http = \"2\" (HTTP/1.1's "
                           f"analogue is pipeline)")
    if http2 and profile.pipeline > 1:
        raise ProfileError(f"http: HTTP/2 does not pipeline (pipeline = {profile.pipeline}); use streams")
    if http2 and False in profile.keepalive_modes:
        raise ProfileError("keepalive: a connection per request is measured over HTTP/1.1 only (http = \"2\" "
                           "given)")
