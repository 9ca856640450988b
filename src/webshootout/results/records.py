"""The lines of results.jsonl as types: the run builds these records to write them (rundir.py), and every line
read back is held to the same definitions and to schemas/results.schema.json, so a field renamed on one side
fails where the file is read instead of showing as "-" in a report."""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cache
from pathlib import Path
from typing import ClassVar

import jsonschema

from ..load.base import LoadResult
from ..workloads import registry

SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schemas" / "results.schema.json"


def now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class RecordError(ValueError):
    """A line that is not what its kind's record says; the message names the field."""


@dataclass(frozen=True)
class Skipped:
    """Something the run did not measure, and why."""

    kind: ClassVar[str] = "skipped"
    framework: str
    workload: str | None
    reason: str
    part: str | None = None
    point: str | None = None  # a load point over a transport the stack does not serve
    time: str = field(default_factory=now)


@dataclass(frozen=True)
class Fault:
    """A stack that failed at a stage (setup, start, trial, stop) with its log's tail."""

    kind: ClassVar[str] = "fault"
    framework: str
    workload: str | None
    stage: str
    reason: str
    log_tail: str = ""
    time: str = field(default_factory=now)


@dataclass(frozen=True)
class Verification:
    """One workload's contract check on one server, before any load."""

    kind: ClassVar[str] = "verification"
    framework: str
    workload: str
    passed: bool
    reason: str | None
    log_tail: str = ""
    part: str | None = None
    keepalive: dict | None = None
    user: str | None = None
    tls: bool = False
    time: str = field(default_factory=now)


@dataclass(frozen=True)
class Trial:
    """One measured trial: the harness's side (who, which point, the server's CPU and memory) and the load
    driver's result (`load`: LoadResult.to_dict(), written flat beside the rest); a workload axis's value is
    written under its key (workloads/registry.py)."""

    kind: ClassVar[str] = "trial"
    framework: str
    display: str
    language: str | None
    workload: str
    part: str
    point: str
    profile: str
    connections: int
    trial: int
    load: dict
    client_cpu_percent: float
    server_cpu_percent: float
    server_rss_peak_mb: float
    server_rss_mean_mb: float
    flags: list
    # Fields that lines written by earlier versions may lack.
    rate: float | None = None
    axes: dict = field(default_factory=dict)
    tls: bool = False
    http: str = "1.1"
    streams: int = 1
    workers: int | None = None
    slo_p99_ms: float | None = None
    burst_steps: list | None = None
    burst_step_seconds: float | None = None
    session: int = 0
    server_memory_method: str | None = None
    server_kernel_peak_mb: float | None = None
    database_cpu_percent: float | None = None
    cpu_link: dict | None = None
    jit_cpu_percent: float | None = None
    jit_reruns: int = 0
    steal_percent: float | None = None
    idle_cpu_percent: float | None = None
    outside_contract: str | None = None  # the manifest's reason, for a variant the report shows apart
    machine_speed: dict | None = None  # {"before", "after"}: system/speed.py's probe, million steps a second
    time: str = field(default_factory=now)


Record = Skipped | Fault | Verification | Trial
KINDS: dict[str, type] = {r.kind: r for r in (Trial, Verification, Fault, Skipped)}
_FLATTENED = {"axes", "load"}


def line_of(record: Record) -> dict:
    """The record as results.jsonl holds it (without the schema version, which rundir.py adds)."""
    data = {f.name: getattr(record, f.name) for f in dataclasses.fields(record) if f.name not in _FLATTENED}
    if isinstance(record, Trial):
        data = {**data, **record.axes, **record.load}
    return {"kind": record.kind, **data}


@cache
def _schema() -> dict:
    return json.loads(SCHEMA_FILE.read_text())


def check_line(line: dict) -> None:
    """RecordError unless `line` (with its schema version) is a record of its kind that the schema accepts."""
    kind = KINDS.get(line.get("kind"))
    if kind is None:
        raise RecordError(f"kind {line.get('kind')!r}: not one of {sorted(KINDS)}")
    try:
        jsonschema.validate(line, _schema())
    except jsonschema.ValidationError as exc:
        where = "/".join(map(str, exc.absolute_path)) or "the line"
        raise RecordError(f"{where}: {exc.message}") from None
    names = {f.name for f in dataclasses.fields(kind)} - _FLATTENED
    if kind is Trial:
        unknown = set(line) - names - {"kind", "schema"} - set(registry.axes()) - _load_fields()
    else:
        unknown = set(line) - names - {"kind", "schema"}
    missing = {f.name for f in dataclasses.fields(kind) if f.name not in _FLATTENED and f.name not in line
               and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING}
    if unknown or missing:
        said = [f"unknown field {name!r}" for name in sorted(unknown)] + [f"no {name!r}" for name in sorted(missing)]
        raise RecordError(f"a {kind.kind} line: {', '.join(said)} (results/records.py defines it)")


@cache
def _load_fields() -> frozenset[str]:
    return frozenset(f.name for f in dataclasses.fields(LoadResult)) - {"window"}
