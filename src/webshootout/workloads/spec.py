"""What a workload is to the rest of the harness: one object per workload module (its WORKLOAD), found by
workloads/registry.py. The layers above read names, the database, load-point axes, targets and checks from
these objects and name no workload themselves."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from .base import Context, Target

Value = Any  # one value of an axis: an int for counts, a bool for sessions


class AxisError(ValueError):
    """An axis value that makes no sense; the message names the suite key and the value."""


def positive_ints(key: str, value, limit: int | None = None) -> tuple[int, ...]:
    """A positive integer or a list of them, at most `limit` (the contract's)."""
    items = value if isinstance(value, list) else [value]
    if not items or not all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in items):
        raise AxisError(f"{key}: expected a positive integer or a list of them, got {value!r}")
    if limit is not None and max(items) > limit:
        raise AxisError(f"{key}: at most {limit} (the contract's limit), got {value!r}")
    return tuple(items)


@dataclass(frozen=True)
class Axis:
    """A workload's own load-point parameter: one load point per value. `key` names it everywhere: the suite
    key, the Profile's values, the trial line's field and the `--key` flag (underscores as dashes)."""

    key: str
    default: tuple
    parse: Callable[[str, object], tuple]  # a suite value (or the flag's, split at commas) -> values
    label: Callable[[Value], str | None]  # the point label's word for a value; None adds none
    flag_example: str  # what a wrong flag's error shows: "1,5,10,15,20"
    help: str  # the flag's --help
    choices: tuple[str, ...] = ()  # a flag that takes one word of these instead of numbers
    per_request: str | None = None  # "queries per request": a numeric axis the report draws a series along
    unit: str = ""  # what one of its values counts, in words
    in_trial_line: bool = True  # written to results.jsonl under `key` (sessions is in the label only)

    @property
    def flag(self) -> str:
        return "--" + self.key.replace("_", "-")

    def sort_value(self, value: Value) -> float:
        return 0 if value is None else (0 if value is True else 1) if isinstance(value, bool) else value


@dataclass(frozen=True)
class SeededTable:
    """A table of a workload's own that the harness creates, seeds and puts back before every trial: rows restored
    to the seed, later rows deleted, an identity column restarted after the seed's ids."""

    name: str
    columns: str  # the column definitions of CREATE TABLE, `id` among them
    seed: str  # a SELECT whose rows, in column order, are the seed
    restored: tuple[str, ...]  # the columns besides id a trial may change


@dataclass(frozen=True)
class Workload:
    """One workload: its contract check, its load target, and how it is driven."""

    name: str
    order: int  # where it stands in listings and reports
    verify: Callable[[Context], None]
    target: Callable[..., Target]  # target(ctx) or, with an axis, target(ctx, value)
    axis: Axis | None = None
    needs_database: bool = False
    emptied_tables: tuple[str, ...] = ()  # tables every database reset empties besides the world rows
    seeded_tables: tuple[SeededTable, ...] = ()
    in_session_store: bool = False  # its state lives where the manifest's session_store says (PostgreSQL or not)
    states: tuple[str, ...] = ()  # the fairness fields a manifest that maps it must state (catalog.py)
    # The slowest request the contract allows, as a query string: HTTP/2's streams check sends it beside the
    # quick one (workloads/transport.py).
    slow_query: str | None = None
    quick: bool = False  # the cheapest answer the contract has: that check's quick request
    messages: bool = False  # messages over one upgraded connection (WebSocket): no pipelining
    # Served over HTTP/1.1 only (TLS too): WebSocket by its nature; request bodies and Content-Encoding because
    # shootout-load's HTTP/2 client sends no bodies and reads no Content-Encoding yet.
    http1_only: bool = False
    # Calls over HTTP/2 only, h2c or TLS (gRPC): no HTTP/1.1 points, and no keep-alive probe (an HTTP/2
    # connection carries every call).
    http2_only: bool = False
    # Its requests carry a body sent with Content-Length that the handler reads (conform aims Expect: 100-continue
    # there).
    reads_body: bool = False
    streams_messages: bool = False  # each answer streams `axis` messages: the report shows messages/s beside calls/s
    bytes_shown: bool = False  # the report shows bytes per answer beside req/s (what compression saves)
    ceiling: Callable[[int], float] | None = None  # answers/s no stack can pass at this many connections
    # After each load run of a mix (Target.mix): what is wrong with the state its answers left (the load's per-step
    # counts given), or None.
    after_mix: Callable[[Context, list[dict]], str | None] | None = None
    # TechEmpower's column on their results page and their name for the test type, where it is one of theirs.
    techempower: tuple[int, str] | None = None
    heaviest_shown: bool = False  # TechEmpower's overview shows this type at its axis's heaviest level

    def target_at(self, ctx: Context, value: Value = None) -> Target:
        return self.target(ctx) if self.axis is None else self.target(ctx, value)
