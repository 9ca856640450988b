"""Finds frameworks/**/framework.toml and turns each into validated Variant objects."""

from __future__ import annotations

import copy
import fnmatch
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..workloads import registry
from .transport import READY_H2, Transport, fits as _transport_fits, parse as _transport

WORKLOADS = registry.NAMES
# The fairness fields a workload may require (its `states`), and their values: TechEmpower's database test types
# (docs/workloads.md) say how they reach PostgreSQL, and updates how it writes.
ORM_CLASSES = ("full", "micro", "raw")
UPDATE_STYLES = ("per-row", "batched")
# baseline: a stack that serves no application (nginx on static files), the ceiling the others are measured
# against; reports show it and never rank it (report/summary.py).
KINDS = ("platform", "micro", "fullstack", "baseline")
PLACEHOLDERS = {"host", "port", "workers"}
SESSION_STORES = ("postgres", "sqlite")
SCHEMA_VERSION = 1
# The shared knobs of docs/fairness.md a manifest may state a departure for.
KNOBS = ("processes", "threads", "pool", "keepalive", "backlog", "logging", "headers")
KEEPALIVE = ("on", "off")
# fairness.backlog: the number the server passes to listen(), then where that number comes from.
BACKLOG = re.compile(r"[1-9][0-9]*: \S.*")


class ManifestError(ValueError):
    """A manifest that does not match the format; the message names the file and the field."""


@dataclass(frozen=True)
class Setup:
    requires: tuple[str, ...]
    apt: tuple[str, ...]
    commands: tuple[str, ...]
    inputs: tuple[Path, ...] = ()  # folders outside the framework's that its build reads (shared code)


@dataclass(frozen=True)
class Start:
    command: str
    env: tuple[tuple[str, str], ...]
    ready: str
    timeout: float
    warmup: float | None  # seconds of warm-up this stack needs (JIT); None = the run's default
    root: str | None = None  # why this stack must run as root; None: it runs as the unprivileged user


@dataclass(frozen=True)
class Fairness:
    """How a stack sets the shared knobs (the manifest's [fairness] table; docs/fairness.md)."""

    processes: str  # "WORKERS" when the count follows WORKERS
    threads: str
    pool: str  # "DB_POOL" when sized from it; "none" without database workloads
    keepalive: str  # "on" | "off"
    production: str
    backlog: str  # "<listen backlog>: where it comes from"; the kernel caps it at net.core.somaxconn
    departures: tuple[tuple[str, str], ...]  # (knob, why), knobs in KNOBS order
    orm: str | None = None  # TechEmpower's class of database access: "full" | "micro" | "raw"
    updates: str | None = None  # how updates writes its rows: "per-row" | "batched"

    def departure(self, knob: str) -> str | None:
        return dict(self.departures).get(knob)


@dataclass(frozen=True)
class Variant:
    """One runnable thing: a framework's base manifest or one of its variants, fully merged."""

    id: str
    name: str
    display: str
    language: str
    version: str
    server: str
    kind: str
    folder: Path
    manifest: Path
    setup: Setup
    start: Start
    workloads: tuple[tuple[str, str], ...]
    unavailable: str | None
    session_store: str = "postgres"  # where the session counter lives; the check reads it there
    fairness: Fairness | None = None  # None only for an unavailable variant
    outside_contract: str | None = None  # why this variant is not comparable with contract rows
    transport: Transport = Transport()  # cleartext HTTP/1.1 only, unless the manifest says more

    def path_of(self, workload: str) -> str | None:
        return dict(self.workloads).get(workload)


_TOP_KEYS = {"schema", "name", "display", "language", "version", "server", "kind", "unavailable",
             "session_store", "setup", "start", "workloads", "variants", "fairness", "outside_contract",
             "transport"}
_VARIANT_KEYS = _TOP_KEYS - {"schema", "name", "variants"}
_SETUP_KEYS = {"requires", "apt", "commands", "inputs"}
_START_KEYS = {"command", "env", "ready", "timeout", "warmup", "root"}
_FAIRNESS_TEXT = ("processes", "threads", "pool", "keepalive", "production", "backlog")
# Tables a variant replaces whole: a variant may implement fewer workloads, or depart on fewer knobs.
_REPLACED = {"workloads", "departures"}


class _Checker:
    def __init__(self, manifest: Path, where: str = ""):
        self.manifest = manifest
        self.where = where

    def fail(self, field: str, expected: str, got: Any = None) -> ManifestError:
        shown = "" if got is None else f", got {got!r}"
        return ManifestError(f"{self.manifest}: {self.where}{field}: expected {expected}{shown}")

    def string(self, table: dict, field: str, *, required: bool = True, prefix: str = "") -> str | None:
        if field not in table:
            if required:
                raise self.fail(prefix + field, "a string (missing)")
            return None
        value = table[field]
        if not isinstance(value, str) or not value:
            raise self.fail(prefix + field, "a non-empty string", value)
        return value

    def strings(self, table: dict, field: str, prefix: str) -> tuple[str, ...]:
        value = table.get(field, [])
        if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
            raise self.fail(prefix + field, "a list of non-empty strings", value)
        return tuple(value)

    def keys(self, table: dict, allowed: set[str], prefix: str) -> None:
        unknown = sorted(set(table) - allowed)
        if unknown:
            raise self.fail(prefix + unknown[0], f"one of {sorted(allowed)} (unknown key)")

    def table(self, table: dict, field: str, prefix: str = "") -> dict:
        value = table.get(field, {})
        if not isinstance(value, dict):
            raise self.fail(prefix + field, "a table", value)
        return value


def _merge(base: dict, override: dict) -> dict:
    merged = copy.deepcopy(base)
    for key, value in override.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict) and key not in _REPLACED:
            merged[key] = _merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def _placeholders(command: str) -> set[str]:
    return set(re.findall(r"{([^{}]*)}", command))


def _database_classes(check: _Checker, table: dict, workloads: dict) -> dict[str, str | None]:
    """fairness.orm and fairness.updates: required once the stack maps the workloads they describe."""
    allowed = {"orm": ORM_CLASSES, "updates": UPDATE_STYLES}
    stated = {field for w in workloads if w in registry.REGISTRY for field in registry.get(w).states}
    found: dict[str, str | None] = {}
    for field in allowed:
        value = check.string(table, field, required=field in stated, prefix="fairness.")
        if value is not None and value not in allowed[field]:
            raise check.fail(f"fairness.{field}", f"one of {list(allowed[field])}", value)
        found[field] = value
    return found


def _fairness(check: _Checker, data: dict) -> Fairness | None:
    if "fairness" not in data:
        if data.get("unavailable") is None:
            raise check.fail("fairness", "a table of how the shared knobs are set, as docs/fairness.md shows (missing)")
        return None
    table = check.table(data, "fairness")
    check.keys(table, {*_FAIRNESS_TEXT, "departures", "orm", "updates"}, "fairness.")
    text = {field: check.string(table, field, prefix="fairness.") for field in _FAIRNESS_TEXT}
    if text["keepalive"] not in KEEPALIVE:
        raise check.fail("fairness.keepalive", f"one of {list(KEEPALIVE)}", text["keepalive"])
    if not BACKLOG.fullmatch(text["backlog"]):
        raise check.fail("fairness.backlog", "'<number>: where it comes from', e.g. \"511: Node's net.Server "
                                             "listen() default\"", text["backlog"])
    departures = check.table(table, "departures", "fairness.")
    for knob, why in departures.items():
        if knob not in KNOBS:
            raise check.fail(f"fairness.departures.{knob}", f"a knob among {list(KNOBS)} (unknown knob)")
        if not isinstance(why, str) or not why.strip():
            raise check.fail(f"fairness.departures.{knob}", "the reason, a non-empty string", why)
    return Fairness(**text, departures=tuple((k, departures[k]) for k in KNOBS if k in departures),
                    **_database_classes(check, table, check.table(data, "workloads")))


def _build(data: dict, vid: str, folder: Path, manifest: Path, where: str) -> Variant:
    check = _Checker(manifest, where)
    name = check.string(data, "name")
    kind = check.string(data, "kind")
    if kind not in KINDS:
        raise check.fail("kind", f"one of {list(KINDS)}", kind)
    unavailable = check.string(data, "unavailable", required=False)
    session_store = data.get("session_store", "postgres")
    if session_store not in SESSION_STORES:
        raise check.fail("session_store", f"one of {list(SESSION_STORES)}", session_store)

    setup_t = check.table(data, "setup")
    check.keys(setup_t, _SETUP_KEYS, "setup.")
    inputs = tuple((folder / rel).resolve() for rel in check.strings(setup_t, "inputs", "setup."))
    for rel, path in zip(setup_t.get("inputs", []), inputs):
        if not path.is_dir():
            raise check.fail("setup.inputs", "folders that exist, relative to the manifest's", rel)
    setup = Setup(check.strings(setup_t, "requires", "setup."), check.strings(setup_t, "apt", "setup."),
                  check.strings(setup_t, "commands", "setup."), inputs)

    start_t = check.table(data, "start")
    check.keys(start_t, _START_KEYS, "start.")
    workloads_t = check.table(data, "workloads")
    for workload, path in workloads_t.items():
        if workload not in WORKLOADS:
            raise check.fail(f"workloads.{workload}", f"a workload among {list(WORKLOADS)} (unknown workload)")
        if not isinstance(path, str) or not path.startswith("/"):
            raise check.fail(f"workloads.{workload}", "a path starting with '/'", path)

    if unavailable is None:
        command = check.string(start_t, "command", prefix="start.")
        bad = _placeholders(command) - PLACEHOLDERS
        if bad:
            raise check.fail("start.command", f"placeholders among {sorted(PLACEHOLDERS)}", "{" + sorted(bad)[0] + "}")
        ready = check.string(start_t, "ready", prefix="start.")
        if not ready.startswith("/") and ready != READY_H2:
            raise check.fail("start.ready", f"a path starting with '/', or {READY_H2!r} for a server of HTTP/2 only",
                             ready)
        if not workloads_t:
            raise check.fail("workloads", "at least one workload (or set `unavailable`)")
    else:
        command, ready = start_t.get("command", ""), start_t.get("ready", "/")
    env = check.table(start_t, "env", "start.")
    for key, value in env.items():
        if not isinstance(value, str):
            raise check.fail(f"start.env.{key}", "a string", value)
    timeout = start_t.get("timeout", 60)
    warmup = start_t.get("warmup")
    for field, value in (("timeout", timeout), ("warmup", warmup)):
        if value is not None and (isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0):
            raise check.fail(f"start.{field}", "a number of seconds >= 0", value)
    root = start_t.get("root")
    if root is not None and (not isinstance(root, str) or not root.strip()):
        raise check.fail("start.root", "why this stack must run as root, a non-empty string", root)

    transport = _transport(check, data)
    if unavailable is None:
        _transport_fits(check, transport, ready, workloads_t)
    return Variant(
        id=vid, name=name, display=check.string(data, "display"), language=check.string(data, "language"),
        version=check.string(data, "version"), server=check.string(data, "server"), kind=kind,
        folder=folder, manifest=manifest, setup=setup,
        start=Start(command, tuple(sorted(env.items())), ready, float(timeout),
                    None if warmup is None else float(warmup), root),
        workloads=tuple((w, workloads_t[w]) for w in WORKLOADS if w in workloads_t),
        unavailable=unavailable, session_store=session_store, fairness=_fairness(check, data),
        outside_contract=check.string(data, "outside_contract", required=False),
        transport=transport,
    )


def load_manifest(manifest: Path) -> list[Variant]:
    """All variants a manifest declares, base first. Raises ManifestError naming file and field."""
    try:
        data = tomllib.loads(manifest.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ManifestError(f"{manifest}: not valid TOML: {exc}") from None
    check = _Checker(manifest)
    check.keys(data, _TOP_KEYS, "")
    if data.get("schema") != SCHEMA_VERSION:
        raise check.fail("schema", f"{SCHEMA_VERSION}", data.get("schema"))
    folder = manifest.parent
    name = check.string(data, "name")
    if name != folder.name:
        raise check.fail("name", f"the folder name {folder.name!r}", name)
    base = {k: v for k, v in data.items() if k not in ("variants", "schema")}
    variants = [_build(base, name, folder, manifest, "")]
    for vname, override in check.table(data, "variants").items():
        where = f"variants.{vname}."
        if not isinstance(override, dict):
            raise check.fail(f"variants.{vname}", "a table", override)
        if not re.fullmatch(r"[a-z0-9][a-z0-9-]*", vname):
            raise check.fail(f"variants.{vname}", "a name of lowercase letters, digits and '-'")
        _Checker(manifest, where).keys(override, _VARIANT_KEYS, "")
        variants.append(_build(_merge(base, override), f"{name}-{vname}", folder, manifest, where))
    return variants


def discover(root: Path) -> list[Variant]:
    """Every variant under root/frameworks, sorted by language then id; ids must be unique."""
    seen: dict[str, Path] = {}
    found: list[Variant] = []
    for manifest in sorted((root / "frameworks").glob("*/*/framework.toml")):
        for variant in load_manifest(manifest):
            if variant.id in seen:
                raise ManifestError(f"{manifest}: id {variant.id!r} is already declared by {seen[variant.id]}")
            seen[variant.id] = manifest
            found.append(variant)
    return sorted(found, key=lambda v: (v.language, v.id))


# Names that select several languages at once (--frameworks jvm).
LANGUAGE_GROUPS = {"jvm": ("java", "kotlin", "scala")}


def _matching(variants: list[Variant], name: str) -> list[Variant]:
    """An exact id, a language (python), a group of languages (jvm) or a glob over ids ('flask*')."""
    exact = [v for v in variants if v.id == name]
    if exact:
        return exact
    languages = LANGUAGE_GROUPS.get(name, (name,))
    by_language = [v for v in variants if v.language in languages]
    return by_language or [v for v in variants if fnmatch.fnmatchcase(v.id, name)]


def select(variants: list[Variant], ids: tuple[str, ...] | None, named_in: str = "--frameworks") -> list[Variant]:
    """The variants named by ids (each an id, a language or a glob), in the given order without repeats; a
    name that matches nothing is an error that says where it was named and lists the known ids."""
    if ids is None:
        return list(variants)
    chosen: dict[str, Variant] = {}
    for name in ids:
        found = _matching(variants, name)
        if not found:
            languages = sorted({v.language for v in variants} | set(LANGUAGE_GROUPS))
            raise ManifestError(f"{named_in}: unknown framework id {name!r} (not an id, a language among "
                                f"{', '.join(languages)}, or a glob matching one); known: "
                                f"{', '.join(sorted(v.id for v in variants))}")
        chosen.update((v.id, v) for v in found if v.id not in chosen)
    return list(chosen.values())


def available_ids(variants: list[Variant]) -> tuple[str, ...]:
    """The ids of the variants that can be set up here (not marked unavailable)."""
    return tuple(v.id for v in variants if not v.unavailable)
