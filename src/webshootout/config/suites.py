"""suites/*.toml: named lineups of frameworks x workloads x load profiles."""

from __future__ import annotations

import math
import tomllib
from dataclasses import dataclass
from pathlib import Path

from . import hostsfile as hosts, profiles
from ..stacks.catalog import WORKLOADS
from .hostsfile import Hosts
from .profiles import Profile, ProfileError


class SuiteError(ValueError):
    """A suite file that does not match the format; the message names the file and the field."""


@dataclass(frozen=True)
class Part:
    """Frameworks x workloads driven by one profile; a suite is one or more parts, run in order."""

    name: str
    frameworks: tuple[str, ...] | None  # None: every available framework
    workloads: tuple[str, ...] | None  # None: every workload a framework implements
    profile: Profile


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    parts: tuple[Part, ...]
    duration: float | None
    warmup: float | None
    trials: int | None
    hosts: Hosts | None = None  # a [hosts] table: where the roles run (see hostsfile.py)
    conform: bool | None = None  # run's conform stage after the trials (docs/conform.md); None: the default, off


def union(selections) -> tuple[str, ...] | None:
    """Every name of the selections in first-seen order; None (everything) if any selection is None."""
    names: list[str] = []
    for selection in selections:
        if selection is None:
            return None
        names.extend(n for n in selection if n not in names)
    return tuple(names)


_PART_KEYS = {"name", "frameworks", "workloads", *profiles.KEYS}
_KEYS = {"description", "duration", "warmup", "trials", "runs", "hosts", "conform"} | _PART_KEYS - {"name"}


def _names(where: str, data: dict, field: str) -> tuple[str, ...] | None:
    value = data.get(field)
    if value is None or value == "all":
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise SuiteError(f"{where}{field}: expected \"all\" or a non-empty list of strings, got {value!r}")
    return tuple(value)


def _number(path: Path, data: dict, field: str, kind: type, minimum: float) -> float | int | None:
    value = data.get(field)
    if value is None:
        return None
    if (isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int)
            or not math.isfinite(value) or value < minimum):
        raise SuiteError(f"{path}: {field}: expected a finite {kind.__name__} >= {minimum}, got {value!r}")
    return kind(value)


def _part(where: str, data: dict, defaults: dict, base: Profile, name: str) -> Part:
    unknown = sorted(set(data) - _PART_KEYS)
    if unknown:
        raise SuiteError(f"{where}{unknown[0]}: unknown key (expected one of {sorted(_PART_KEYS)})")
    merged = {**defaults, **data}
    workloads = _names(where, merged, "workloads")
    for workload in workloads or ():
        if workload not in WORKLOADS:
            raise SuiteError(f"{where}workloads: unknown workload {workload!r} (known: {', '.join(WORKLOADS)})")
    try:
        profile = profiles.parse(data, base)
    except ProfileError as exc:
        raise SuiteError(f"{where}{exc}") from None
    label = data.get("name", name)
    if not isinstance(label, str) or not label:
        raise SuiteError(f"{where}name: expected a non-empty string, got {label!r}")
    return Part(label, _names(where, merged, "frameworks"), workloads, profile)


def load(path: Path) -> Suite:
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SuiteError(f"{path}: {unknown[0]}: unknown key (expected one of {sorted(_KEYS)})")
    if not isinstance(data.get("conform", False), bool):
        raise SuiteError(f"{path}: conform: expected true or false, got {data['conform']!r}")
    description = data.get("description", "")
    if not isinstance(description, str):
        raise SuiteError(f"{path}: description: expected a string, got {description!r}")
    top = {k: v for k, v in data.items() if k in _PART_KEYS}
    base = _part(f"{path}: ", top, {}, Profile(), path.stem)
    runs = data.get("runs")
    if runs is None:
        parts = (base,)
    else:
        if not isinstance(runs, list) or not runs or not all(isinstance(r, dict) for r in runs):
            raise SuiteError(f"{path}: runs: expected one or more [[runs]] tables, got {runs!r}")
        selection = {k: v for k, v in top.items() if k in ("frameworks", "workloads")}
        parts = tuple(_part(f"{path}: runs[{i}].", run, selection, base.profile, f"{path.stem}-{i + 1}")
                      for i, run in enumerate(runs))
    return Suite(
        name=path.stem, description=description, parts=parts,
        duration=_number(path, data, "duration", float, 0.5), warmup=_number(path, data, "warmup", float, 0),
        trials=_number(path, data, "trials", int, 1),
        hosts=_hosts(path, data), conform=data.get("conform"),
    )


def _hosts(path: Path, data: dict) -> Hosts | None:
    if "hosts" not in data:
        return None
    try:
        return hosts.from_table(path, data["hosts"])
    except hosts.HostsError as exc:
        raise SuiteError(str(exc)) from None


def find(root: Path, name: str) -> Suite:
    path = root / "suites" / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in (root / "suites").glob("*.toml"))
        raise SuiteError(f"unknown suite {name!r}: no {path} (known: {', '.join(known) or 'none'})")
    return load(path)
