"""Typed, frozen Settings built once from the command line, the suite file and the defaults."""

from __future__ import annotations

import argparse
import dataclasses
import math
import os
from dataclasses import dataclass
from pathlib import Path

from . import hostsfile as hostsfile
from ..stacks import catalog
from . import profiles, suites
from ..stacks.catalog import WORKLOADS
from ..workloads import registry
from .profiles import ProfileError

DRIVERS = ("native", "wrk", "ab", "h2load")


class SettingsError(ValueError):
    """A bad flag value; the message names the flag and the value."""


@dataclass(frozen=True)
class Settings:
    root: Path
    suite: suites.Suite | None
    frameworks: tuple[str, ...] | None  # every part's selection together (None: all)
    workloads: tuple[str, ...] | None
    parts: tuple[suites.Part, ...]  # what `run` measures, in order
    duration: float = 5.0
    warmup: float = 2.0
    trials: int = 3
    driver: str = "native"
    server_cpus: tuple[int, ...] = (0,)
    load_cpus: tuple[int, ...] = (0,)
    out: Path | None = None
    resume: Path | None = None
    install: bool = True  # whether setup may apt-get install (only as root)
    hosts: hostsfile.Hosts | None = None  # where app, database and load run; None: all on this machine
    interleave: bool = True  # a part's trials in rounds over its stacks (engine/rounds.py), not stack by stack
    conform: bool = False  # run's conform stage after the trials (--conform, or the suite's conform key)

    @property
    def suite_name(self) -> str:
        return self.suite.name if self.suite else "adhoc"

    @property
    def frameworks_named_in(self) -> str:
        """Where the framework ids come from: a suite's parts only ever narrow to ids their file names."""
        return f"suites/{self.suite.name}.toml" if self.suite else "--frameworks"

    def variants(self) -> list[catalog.Variant]:
        """The selected frameworks' variants (all of them without a selection)."""
        return catalog.select(catalog.discover(self.root), self.frameworks, self.frameworks_named_in)


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


def _refuse_shared_cpus(server_cpus: tuple[int, ...], load_cpus: tuple[int, ...]) -> None:
    """Server and load generator on one CPU make the server's CPU share and the client-bound flag meaningless;
    only a machine with a single CPU has no choice."""
    shared = sorted(set(server_cpus) & set(load_cpus))
    if shared and len(os.sched_getaffinity(0)) > 1:
        raise SettingsError(f"--load-cpus {_cpu_list(load_cpus)} and --server-cpus {_cpu_list(server_cpus)} share "
                            f"CPU {_cpu_list(shared)}: the load generator would take CPU time from the server it "
                            f"measures; give each its own CPUs (by default they get half each)")


def _cpu_list(cpus) -> str:
    return ",".join(map(str, cpus))


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


def _numbers(flag: str, text: str, kind: type, example: str) -> list:
    try:
        values = [kind(v) for v in text.split(",")]
    except ValueError:
        values = []
    if not values or any(not math.isfinite(v) or v <= 0 for v in values):
        raise SettingsError(f"{flag}: expected positive numbers like {example!r}, got {text!r}")
    return values


def parse_connections(text: str) -> tuple[int, ...]:
    return tuple(_numbers("--connections", text, int, "16,64,256"))


def profile_flags(args) -> dict:
    """The profile flags given on the command line, as suite-file keys (see profiles.KEYS)."""
    get = lambda name: getattr(args, name, None)  # noqa: E731
    table: dict = {}
    if get("connections") is not None:
        table["connections"] = list(parse_connections(get("connections")))
    if get("rate") is not None:
        table["rate"] = _numbers("--rate", get("rate"), float, "1000,5000")
    if get("rate_sweep") is not None:
        text = get("rate_sweep")
        if text == profiles.AUTO:
            table["rate_sweep"] = text
        else:
            values = _numbers("--rate-sweep", text.replace(":", ","), float, "1000:50000:8")
            if len(values) not in (2, 3):
                raise SettingsError(f"--rate-sweep: expected FROM:TO[:STEPS] or 'auto', got {text!r}")
            table["rate_sweep"] = {"from": values[0], "to": values[1], "steps": int(values[2]) if len(values) == 3 else 8}
    if get("burst") is not None:
        steps, _, seconds = get("burst").partition(":")
        table["burst"] = {"steps": [int(v) for v in _numbers("--burst", steps, int, "100,500,1000:5")],
                          "step_seconds": _numbers("--burst", seconds or "5", float, "100,500,1000:5")[0]}
    for key, axis in registry.axes().items():
        if get(key) is not None:
            table[key] = get(key) if axis.choices else [int(v) for v in _numbers(axis.flag, get(key), int, axis.flag_example)]
    for flag in ("workers", "slo_p99_ms", "websocket_rate", "pipeline", "tls", "http", "streams"):
        if get(flag) is not None:
            table[flag] = get(flag)
    if get("keepalive") is not None:
        table["keepalive"] = {"on": True, "off": False, "both": "both"}[get("keepalive")]
    if get("requests_per_connection") is not None:
        text = get("requests_per_connection")
        try:
            table["requests_per_connection"] = [int(v) for v in text.split(",")]
        except ValueError:
            raise SettingsError(f"--requests-per-connection: expected whole numbers like '0,10', got {text!r}") from None
    return table


def _select(flag_value: tuple[str, ...] | None, part_value: tuple[str, ...] | None) -> tuple[str, ...] | None:
    """A command-line selection narrows a part that names its own, and replaces one that takes all."""
    if flag_value is None:
        return part_value
    return flag_value if part_value is None else tuple(v for v in part_value if v in flag_value)


def plan(suite: suites.Suite | None, frameworks, workloads, flags: dict) -> tuple[suites.Part, ...]:
    try:
        if suite is None:
            return (suites.Part("adhoc", frameworks, workloads, profiles.parse(flags)),)
        parts = []
        for part in suite.parts:
            part = suites.Part(part.name, _select(frameworks, part.frameworks), _select(workloads, part.workloads),
                               profiles.parse(flags, part.profile))
            if part.frameworks != () and part.workloads != ():
                parts.append(part)
    except ProfileError as exc:
        raise SettingsError(f"--{str(exc).replace('_', '-')}") from None
    if not parts:
        raise SettingsError(f"suite {suite.name}: no part of it runs any of --frameworks/--workloads given")
    return tuple(parts)


def build(args, root: Path, *, default_suite: str | None = None) -> Settings:
    """Settings from an argparse namespace: command line over suite file over defaults."""
    get = lambda name: getattr(args, name, None)  # noqa: E731 - not every command has every flag
    suite_name = get("suite") or (default_suite if get("frameworks") is None else None)
    try:
        suite = suites.find(root, suite_name) if suite_name else None
    except suites.SuiteError as exc:
        raise SettingsError(str(exc)) from None
    defaults = Settings(root=root, suite=None, frameworks=None, workloads=None, parts=())

    def pick(name: str, parsed, from_suite):
        if parsed is not None:
            return parsed
        return from_suite if from_suite is not None else getattr(defaults, name)

    for flag, minimum in (("duration", 0.5), ("warmup", 0.0)):
        if get(flag) is not None and not (math.isfinite(get(flag)) and get(flag) >= minimum):
            raise SettingsError(f"--{flag}: expected seconds >= {minimum}, got {get(flag)}")
    if get("trials") is not None and get("trials") < 1:
        raise SettingsError(f"--trials: expected at least 1, got {get('trials')}")
    placed = _hosts(get("hosts"), suite)
    if placed is not None:
        _refuse_with_hosts(get)
        server_default, load_default = placed["app"].cpus, placed["load"].cpus
    else:
        server_default, load_default = default_split()
    server_cpus = parse_cpus("--server-cpus", get("server_cpus")) if get("server_cpus") else server_default
    load_cpus = parse_cpus("--load-cpus", get("load_cpus")) if get("load_cpus") else load_default
    if placed is None:
        _refuse_shared_cpus(server_cpus, load_cpus)
    frameworks = parse_list("--frameworks", get("frameworks"))
    workloads = parse_list("--workloads", get("workloads"), WORKLOADS)
    parts = plan(suite, frameworks, workloads, profile_flags(args))
    return Settings(
        root=root,
        suite=suite,
        frameworks=suites.union(part.frameworks for part in parts),
        workloads=suites.union(part.workloads for part in parts),
        duration=pick("duration", get("duration"), suite and suite.duration),
        warmup=pick("warmup", get("warmup"), suite and suite.warmup),
        trials=pick("trials", get("trials"), suite and suite.trials),
        parts=parts,
        driver=get("driver") or defaults.driver,
        server_cpus=server_cpus,
        load_cpus=load_cpus,
        # Absolute: the run directory's paths go to servers and PostgreSQL, which start in directories of their own.
        out=Path(get("out")).absolute() if get("out") else None,
        resume=Path(get("resume")).absolute() if get("resume") else None,
        install=not get("no_install"),
        hosts=placed,
        interleave=get("interleave") is not False,
        conform=get("conform") if get("conform") is not None else bool(suite and suite.conform),
    )


def _hosts(flag: str | None, suite: suites.Suite | None) -> hostsfile.Hosts | None:
    """--hosts FILE, else the suite's [hosts] table, else None (everything on this machine)."""
    if not flag:
        return suite.hosts if suite else None
    try:
        return hostsfile.load(Path(flag))
    except hostsfile.HostsError as exc:
        raise SettingsError(f"--hosts: {exc}") from None


def _refuse_with_hosts(get) -> None:
    """Flags a hosts file decides, or that cannot work across hosts."""
    for flag in ("server_cpus", "load_cpus"):
        if get(flag):
            raise SettingsError(f"--{flag.replace('_', '-')}: the hosts file gives each role's CPUs; "
                                f"set them there")
    if get("driver") not in (None, "native"):
        raise SettingsError(f"--driver {get('driver')}: only the native driver (shootout-load) runs on a load "
                            f"host; drop --driver or --hosts")


# What a resumed run may not change: every trial of a run must be measured the same way.
_FIXED = (("--suite", "suite_name"), ("--duration", "duration"), ("--warmup", "warmup"), ("--driver", "driver"),
          ("--server-cpus", "server_cpus"), ("--load-cpus", "load_cpus"), ("--hosts", "hosts"))
_PROFILE_FLAGS = {"rates": "--rate", "keepalive_modes": "--keepalive", "per_connection": "--requests-per-connection",
                  "tls_modes": "--tls", "http_versions": "--http"}


def resume_flags(now, then) -> argparse.Namespace:
    """The flags of a resumed run: those it was started with, overlaid by the ones given with --resume."""
    given = {k: v for k, v in vars(now).items() if v is not None and v is not False}
    merged = argparse.Namespace(**{**vars(then), **given})
    if merged.suite is None and then.suite is None and then.frameworks is None:
        merged.suite = "quick"  # it ran the default suite; a --frameworks now narrows it
    return merged


def _shown(value) -> str:
    return str(value) if isinstance(value, hostsfile.Hosts) else repr(value)


def refuse_changes(then: Settings, now: Settings) -> None:
    """Raises SettingsError naming the first flag whose value differs from the run being resumed."""
    for flag, name in _FIXED:
        if getattr(then, name) != getattr(now, name):
            raise SettingsError(f"{flag}: the run was made with {_shown(getattr(then, name))}, --resume was given "
                                f"{_shown(getattr(now, name))}; start a new run to change it")
    before = {part.name: part.profile for part in then.parts}
    for part in now.parts:
        if part.name not in before:
            continue
        old, new = before[part.name], part.profile
        differ = [(_PROFILE_FLAGS.get(f.name, "--" + f.name.replace("_", "-")), getattr(old, f.name), getattr(new, f.name))
                  for f in dataclasses.fields(new) if f.name != "axes"]
        differ += [(axis.flag, old.values(axis), new.values(axis)) for axis in registry.axes().values()]
        for flag, was, given in differ:
            if was != given:
                raise SettingsError(f"{flag}: the run was made with {was!r} (part {part.name}), --resume was "
                                    f"given {given!r}; start a new run to change it")


def refuse_other_hosts(recorded: dict | None, now: hostsfile.Hosts | None) -> None:
    """The hosts file is read again on --resume: its roles must be where meta.json's topology says the run
    put them (the same ssh destination, address and CPUs)."""
    then = {role: (h["ssh"], h["address"], tuple(h["cpus"])) for role, h in (recorded or {}).items()}
    placed = {h.role: (h.ssh, h.address, h.cpus) for h in now.hosts} if now else {}
    for role in sorted(set(then) | set(placed)):
        if then.get(role) != placed.get(role):
            raise SettingsError(f"--hosts: the run placed {role} on {_place(then.get(role))}, the hosts given now "
                                f"place it on {_place(placed.get(role))}; start a new run to change it")


def _place(where: tuple | None) -> str:
    return "this machine" if where is None else f"{where[0]} (address {where[1]}, CPUs {list(where[2])})"
