"""Typed, frozen Settings built once from the command line, the suite file and the defaults."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from . import suites
from .catalog import WORKLOADS

DRIVERS = ("wrk", "ab")
DEFAULT_SUITE = "quick"


class SettingsError(ValueError):
    """A bad flag value; the message names the flag and the value."""


@dataclass(frozen=True)
class Settings:
    root: Path
    suite: suites.Suite | None
    frameworks: tuple[str, ...] | None
    workloads: tuple[str, ...] | None
    duration: float = 5.0
    warmup: float = 2.0
    trials: int = 3
    connections: tuple[int, ...] = (64,)
    driver: str = "wrk"
    server_cpus: tuple[int, ...] = (0,)
    load_cpus: tuple[int, ...] = (0,)
    out: Path | None = None
    resume: Path | None = None
    install: bool = True  # whether setup may apt-get install (only as root)

    @property
    def suite_name(self) -> str:
        return self.suite.name if self.suite else "adhoc"


def parse_cpus(flag: str, text: str) -> tuple[int, ...]:
    """'0', '0,2' or '0-3' -> CPU numbers; each must exist on this machine."""
    cpus: list[int] = []
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            cpus.extend(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise SettingsError(f"{flag}: expected CPU numbers like '0', '0,2' or '0-3', got {text!r}") from None
    available = sorted(os.sched_getaffinity(0))
    missing = [c for c in cpus if c not in available]
    if not cpus or missing:
        raise SettingsError(f"{flag}: CPU {missing[0] if missing else text!r} is not available "
                            f"(this process may use {available})")
    return tuple(sorted(set(cpus)))


def default_split() -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Server gets the first half of the CPUs, the load generator the rest (both all CPUs on one CPU)."""
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) == 1:
        return tuple(cpus), tuple(cpus)
    half = len(cpus) // 2
    return tuple(cpus[:half]), tuple(cpus[half:])


def parse_list(flag: str, text: str | None, known: tuple[str, ...] | None = None) -> tuple[str, ...] | None:
    if text is None:
        return None
    items = tuple(i.strip() for i in text.split(",") if i.strip())
    if not items:
        raise SettingsError(f"{flag}: expected a comma-separated list, got {text!r}")
    for item in items:
        if known is not None and item not in known:
            raise SettingsError(f"{flag}: unknown value {item!r} (known: {', '.join(known)})")
    return items


def parse_connections(text: str) -> tuple[int, ...]:
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        values = ()
    if not values or any(v < 1 for v in values):
        raise SettingsError(f"--connections: expected positive integers like '64' or '16,64,256', got {text!r}")
    return values


def build(args, root: Path, *, default_suite: str | None = None) -> Settings:
    """Settings from an argparse namespace: command line over suite file over defaults."""
    get = lambda name: getattr(args, name, None)  # noqa: E731 - not every command has every flag
    suite_name = get("suite") or (default_suite if get("frameworks") is None else None)
    try:
        suite = suites.find(root, suite_name) if suite_name else None
    except suites.SuiteError as exc:
        raise SettingsError(str(exc)) from None
    defaults = Settings(root=root, suite=None, frameworks=None, workloads=None)

    def pick(name: str, parsed, from_suite):
        if parsed is not None:
            return parsed
        return from_suite if from_suite is not None else getattr(defaults, name)

    for flag, minimum in (("duration", 0.5), ("warmup", 0.0)):
        if get(flag) is not None and get(flag) < minimum:
            raise SettingsError(f"--{flag}: expected seconds >= {minimum}, got {get(flag)}")
    if get("trials") is not None and get("trials") < 1:
        raise SettingsError(f"--trials: expected at least 1, got {get('trials')}")
    server_default, load_default = default_split()
    return Settings(
        root=root,
        suite=suite,
        frameworks=parse_list("--frameworks", get("frameworks")) or (suite.frameworks if suite else None),
        workloads=parse_list("--workloads", get("workloads"), WORKLOADS) or (suite.workloads if suite else None),
        duration=pick("duration", get("duration"), suite and suite.duration),
        warmup=pick("warmup", get("warmup"), suite and suite.warmup),
        trials=pick("trials", get("trials"), suite and suite.trials),
        connections=pick("connections", get("connections") and parse_connections(get("connections")),
                         suite and suite.connections),
        driver=get("driver") or defaults.driver,
        server_cpus=parse_cpus("--server-cpus", get("server_cpus")) if get("server_cpus") else server_default,
        load_cpus=parse_cpus("--load-cpus", get("load_cpus")) if get("load_cpus") else load_default,
        out=Path(get("out")) if get("out") else None,
        resume=Path(get("resume")) if get("resume") else None,
        install=not get("no_install"),
    )
