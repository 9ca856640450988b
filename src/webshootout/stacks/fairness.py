"""The fairness rule (issue 17): what every stack must do per shared knob, whether its manifest says it
does or why it departs, and docs/fairness.md, the per-id table generated from the manifests."""

from __future__ import annotations

import os
import re
from pathlib import Path

from .catalog import KNOBS, Variant
from .provision import BUILD_DIRS
from ..workloads import registry

DOC = Path("docs") / "fairness.md"
# What the harness sets for pools: each process's share, and the whole for a one-process server.
POOL_VARIABLES = ("DB_POOL", "DB_POOL_TOTAL")
# Files that describe a stack rather than run it: mentioning DB_POOL there does not size a pool.
_PROSE = {".md", ".txt", ".rst"}
_CACHES = {"__pycache__", ".git"}
# net.core.somaxconn on the benchmark machine (sysctl), stated in the rule rather than read here, so that
# docs/fairness.md does not change with the machine that generates it.
SOMAXCONN = 4096

RULES = (
    ("processes", "Serving processes = `WORKERS` (the environment variable, also `{workers}` in the start "
                  "command; one per server CPU unless `--workers` says otherwise). A single-process "
                  "multi-threaded runtime (Go, Java, Rust) sets its worker threads to `WORKERS` instead. "
                  "A stack that is single-process by design (one event loop) states it as a departure."),
    ("threads", "Serving threads per process as the framework's production guidance sets them, stated "
                "in words."),
    ("pool", "A server opens at most `DB_POOL_TOTAL` database connections in all: the pool-sizing rule of "
             "PostgreSQL's wiki and HikariCP, 2 x database CPUs + 1 (PostgreSQL runs on the server CPUs, so "
             "3 with one server CPU; `server.Environment.db_pool_total`). A server of `WORKERS` processes "
             "shares them: each process opens at most `DB_POOL` (`DB_POOL_TOTAL` / `WORKERS`, rounded up, at "
             "least 1); a one-process server (Go, Rust, Java, C++) sizes its one pool from `DB_POOL_TOTAL`. "
             "Min = max where the pool has both. The manifest says `pool = \"DB_POOL\"` for either."),
    ("keepalive", "HTTP/1.1 persistent connections on, unless the production form closes connections "
                  "by design (e.g. gunicorn's sync worker, meant to sit behind a buffering proxy)."),
    ("backlog", "The server's listen backlog is its production default, or the value its documentation "
                "recommends for many clients; the manifest says which and where it is set, as "
                "`\"<number>: where it comes from\"`. The kernel caps every value at `net.core.somaxconn` "
                f"({SOMAXCONN} on the benchmark machine, `sysctl net.core.somaxconn`; Linux's default since "
                "5.4): a larger value is silently lowered to it. At many connections the backlog holds the "
                "connects a busy server has not accepted yet, so it decides how fast those connections open."),
    ("logging", "No per-request access log; warnings and errors only."),
    ("production", "The framework's production/release settings: debug off, release builds, production "
                   "modes."),
    ("headers", "Every response carries `Server` and a current `Date` (IMF-fixdate, changing at least "
                "once a second); plaintext, session and hash answer `text/plain; charset=utf-8`, json, "
                "db, queries, updates and cached `application/json`, fortunes `text/html; charset=utf-8`, "
                "static `text/html` ([workloads.md](workloads.md))."),
    ("database access", "A stack that maps queries, updates, fortunes or cached reaches PostgreSQL as its "
                        "framework's documentation recommends for production, and states TechEmpower's class "
                        "of it: `orm = \"full\"` (a full ORM), `\"micro\"` (a thin mapper or query builder) "
                        "or `\"raw\"` (the driver's own API); for updates, `updates = \"per-row\"` (an UPDATE "
                        "per row) or `\"batched\"` (one per request), which `./shootout check` counts."),
    ("JIT warm-up", "The same for every stack: each point's first trial warms up until its throughput "
                    "holds its level (three one-second windows against the three before, within 3 % up or "
                    "down), at most "
                    "`--warmup`; a stack whose runtime compiles hot code "
                    "(a JIT) states `start.warmup`, which raises that cap for the first point of each "
                    "workload ([method.md](method.md))."),
)


def uses_database(variant: Variant) -> bool:
    """Whether the variant opens PostgreSQL connections (a SQLite session counter does not)."""
    return any(registry.get(w).needs_database and (variant.session_store == "postgres"
                                                   or not registry.get(w).in_session_store)
               for w, _ in variant.workloads)


def _source_files(folder: Path):
    for dirpath, dirnames, filenames in os.walk(folder):
        top = Path(dirpath) == folder
        dirnames[:] = [d for d in dirnames if d not in _CACHES and not (top and d in BUILD_DIRS)]
        for name in filenames:
            path = Path(dirpath) / name
            if path.suffix not in _PROSE and name != "framework.toml" and path.is_file():
                yield path


def reads(variant: Variant, name: str) -> bool:
    """Whether the variant's start command or a source file of its folder (or setup.inputs) names the
    environment variable `name`."""
    word = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
    if word.search(variant.start.command.encode()) or any(word.search(v.encode()) for _, v in variant.start.env):
        return True
    folders = (variant.folder, *variant.setup.inputs)
    return any(word.search(path.read_bytes()) for folder in folders for path in _source_files(folder))


def problems(variant: Variant) -> list[str]:
    """Where the variant departs from the rule without saying why, or says something its code does not
    do. Empty for a variant that is unavailable (never run)."""
    if variant.unavailable:
        return []
    fair = variant.fairness
    found = []

    def unexplained(knob: str, what: str) -> None:
        found.append(f"{variant.manifest}: {variant.id}: {what} and no fairness.departures.{knob} says why")

    def stale(knob: str) -> None:
        found.append(f"{variant.manifest}: {variant.id}: fairness.departures.{knob} explains a departure, "
                     f"but fairness.{knob} follows the rule")

    follows_workers = fair.processes == "WORKERS" or "WORKERS" in fair.threads
    if not follows_workers and not fair.departure("processes"):
        unexplained("processes", f"processes = {fair.processes!r} (threads {fair.threads!r}) do not follow WORKERS")
    if follows_workers and fair.departure("processes"):
        stale("processes")
    if follows_workers and "{workers}" not in variant.start.command and not reads(variant, "WORKERS"):
        found.append(f"{variant.manifest}: {variant.id}: fairness says the count follows WORKERS, but neither "
                     "the start command ({workers}) nor any source file reads WORKERS")
    if uses_database(variant):
        if fair.pool != "DB_POOL" and not fair.departure("pool"):
            unexplained("pool", f"pool = {fair.pool!r}, not DB_POOL")
        if fair.pool == "DB_POOL" and fair.departure("pool"):
            stale("pool")
        if fair.pool == "DB_POOL" and not any(reads(variant, name) for name in POOL_VARIABLES):
            found.append(f"{variant.manifest}: {variant.id}: fairness.pool = 'DB_POOL', but neither the start "
                         "command nor any source file of its folder or setup.inputs reads DB_POOL or DB_POOL_TOTAL")
    elif fair.pool != "none":
        found.append(f"{variant.manifest}: {variant.id}: fairness.pool = {fair.pool!r}, expected 'none': "
                     "no workload it implements uses PostgreSQL")
    if fair.keepalive == "off" and not fair.departure("keepalive"):
        unexplained("keepalive", "keepalive = 'off'")
    if fair.keepalive == "on" and fair.departure("keepalive"):
        stale("keepalive")
    return found


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _row(variant: Variant) -> str:
    fair = variant.fairness
    warmup = "--warmup" if variant.start.warmup is None else f"{variant.start.warmup:g} s"
    departures = "; ".join(f"**{knob}**: {why}" for knob, why in fair.departures)
    cells = [variant.id, variant.server, fair.processes, fair.threads, fair.pool, fair.orm or "-",
             fair.updates or "-", fair.keepalive, fair.backlog, fair.production, variant.version, warmup,
             departures]
    if variant.outside_contract:
        cells.append(variant.outside_contract)
    return "| " + " | ".join(_cell(c) for c in cells) + " |"


_HEAD = ["id", "server", "processes", "threads per process", "pool", "orm", "updates", "keep-alive",
         "listen backlog", "production settings", "version", "warm-up cap", "departures (why)"]


def _table(variants: list[Variant], extra: list[str]) -> list[str]:
    head = [*_HEAD, *extra]
    return ["| " + " | ".join(head) + " |", "|" + "---|" * len(head), *(_row(v) for v in variants)]


def render(variants: list[Variant]) -> str:
    """docs/fairness.md for these variants: the rule per knob, then how each id sets it."""
    runnable = [v for v in variants if not v.unavailable]
    contract = [v for v in runnable if not v.outside_contract]
    outside = [v for v in runnable if v.outside_contract]
    lines = [
        "<!-- Generated by `./shootout fairness` from the framework.toml manifests: edit those, not this. -->",
        "# Fairness: one rule per shared knob",
        "",
        "Every implementation applies the same rule to each knob below. Where a framework's own production "
        "guidance disagrees, the implementation follows the guidance and its manifest's `[fairness]` table "
        "says so under `departures`; `tests/test_fairness.py` fails when a manifest departs from a rule "
        "without a reason, or claims a pool sized from `DB_POOL` that no source file reads (nor "
        "`DB_POOL_TOTAL`).",
        "",
        "## The rule",
        "",
        *(f"- **{knob}**: {text}" for knob, text in RULES),
        "",
        "## The manifest's table",
        "",
        "```toml",
        "[fairness]",
        'processes = "WORKERS"      # "WORKERS" when the count follows it, else what it is ("1")',
        'threads = "1"              # per process, in words: "event loop", "GOMAXPROCS = WORKERS"',
        'pool = "DB_POOL"           # "DB_POOL" when sized from it, else what it is; "none" without database',
        'keepalive = "on"           # "on" or "off"',
        'backlog = "4096: Go\'s net.Listen uses net.core.somaxconn"  # "<number>: where it comes from"',
        'orm = "raw"                # with queries, updates, fortunes or cached: "full", "micro" or "raw"',
        'updates = "per-row"        # with updates: "per-row" or "batched"',
        'production = "GIN_MODE=release; no access log"',
        "# per knob (" + ", ".join(KNOBS) + "): why this stack departs from the rule",
        'departures = { pool = "PHP opens one persistent connection per FPM child by design" }',
        "```",
        "",
        "A variant overrides keys like any other table; its `departures`, when set, replace the base's "
        "(`departures = {}` clears them). A variant outside the contract (not comparable with the others) "
        'sets `outside_contract = "why"`.',
        "",
        "## Per implementation",
        "",
        *_table(contract, []),
    ]
    if outside:
        lines += ["", "## Outside the contract", "",
                  "Shown apart in every report and never ranked with the rows above.", "",
                  *_table(outside, ["outside the contract because"])]
    unavailable = [v.id for v in variants if v.unavailable]
    if unavailable:
        lines += ["", f"Unavailable here (listed, never run): {', '.join(unavailable)}."]
    return "\n".join(lines) + "\n"
