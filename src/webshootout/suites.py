"""suites/*.toml: named lineups of frameworks x workloads x load profiles."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

from .catalog import WORKLOADS


class SuiteError(ValueError):
    """A suite file that does not match the format; the message names the file and the field."""


@dataclass(frozen=True)
class Suite:
    name: str
    description: str
    frameworks: tuple[str, ...] | None  # None: every available framework
    workloads: tuple[str, ...] | None  # None: every workload a framework implements
    connections: tuple[int, ...] | None
    duration: float | None
    warmup: float | None
    trials: int | None


_KEYS = {"description", "frameworks", "workloads", "connections", "duration", "warmup", "trials"}


def _names(path: Path, data: dict, field: str) -> tuple[str, ...] | None:
    value = data.get(field)
    if value is None or value == "all":
        return None
    if not isinstance(value, list) or not value or not all(isinstance(v, str) for v in value):
        raise SuiteError(f"{path}: {field}: expected \"all\" or a non-empty list of strings, got {value!r}")
    return tuple(value)


def _number(path: Path, data: dict, field: str, kind: type, minimum: float) -> float | int | None:
    value = data.get(field)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int) or value < minimum:
        raise SuiteError(f"{path}: {field}: expected a {kind.__name__} >= {minimum}, got {value!r}")
    return kind(value)


def load(path: Path) -> Suite:
    try:
        data = tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise SuiteError(f"{path}: not valid TOML: {exc}") from None
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise SuiteError(f"{path}: {unknown[0]}: unknown key (expected one of {sorted(_KEYS)})")
    workloads = _names(path, data, "workloads")
    for workload in workloads or ():
        if workload not in WORKLOADS:
            raise SuiteError(f"{path}: workloads: unknown workload {workload!r} (known: {', '.join(WORKLOADS)})")
    connections = data.get("connections")
    if connections is not None:
        if isinstance(connections, int):
            connections = [connections]
        if (not isinstance(connections, list) or not connections
                or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 1 for c in connections)):
            raise SuiteError(f"{path}: connections: expected a positive integer or a list of them, "
                             f"got {data.get('connections')!r}")
        connections = tuple(connections)
    description = data.get("description", "")
    if not isinstance(description, str):
        raise SuiteError(f"{path}: description: expected a string, got {description!r}")
    return Suite(
        name=path.stem, description=description, frameworks=_names(path, data, "frameworks"),
        workloads=workloads, connections=connections,
        duration=_number(path, data, "duration", float, 0.5), warmup=_number(path, data, "warmup", float, 0),
        trials=_number(path, data, "trials", int, 1),
    )


def find(root: Path, name: str) -> Suite:
    path = root / "suites" / f"{name}.toml"
    if not path.is_file():
        known = sorted(p.stem for p in (root / "suites").glob("*.toml"))
        raise SuiteError(f"unknown suite {name!r}: no {path} (known: {', '.join(known) or 'none'})")
    return load(path)
