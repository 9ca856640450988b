"""The trial engine's two typed interfaces: Stack, what starts servers (the harness module, or a fake in tests),
and Steps, what the rounds (rounds.py) and the transports (transports.py) ask of a run (context.py's
RunContext)."""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path
from typing import Callable, Protocol

from ..config.profiles import Point
from ..config.settings import Settings
from ..config.suites import Part
from ..harness import Fault, Served
from ..hosts.placement import Placement
from ..results.rundir import RunDir
from ..server import Environment
from ..stacks.catalog import Variant
from ..system import cpulink
from ..system.speed import Speed
from .lines import StackFailed, Subject


class Stack(Protocol):
    def environment(self, work: Path, logs: Path, cpus: tuple[int, ...], need_database: bool,
                    where: Placement | None = None) -> AbstractContextManager[Environment]: ...

    def needs_database(self, variants: list[Variant]) -> bool: ...

    def serving(self, variant: Variant, env: Environment, *, install: bool,
                on_stop_fault: Callable[[Fault], None]) -> AbstractContextManager[Served]: ...

    def cpu_link(self, server_cpus: tuple[int, ...], load_cpus: tuple[int, ...],
                 where: Placement | None) -> cpulink.Link | None: ...

    def machine_speed(self, load_cpus: tuple[int, ...],
                      where: Placement | None) -> AbstractContextManager[Speed | None]: ...


class Steps(Protocol):
    settings: Settings
    rundir: RunDir
    env: Environment
    done: dict  # trial_key -> req/s of trials already recorded (a resumed run)
    seed: int
    idle: tuple[Served, ...]
    tls_env: Environment | None

    def available(self, part: Part, variant: Variant) -> bool: ...

    def serving(self, variant: Variant, env: Environment) -> AbstractContextManager[Served]: ...

    def verified(self, part: Part, served: Served) -> list[str]: ...

    def failed(self, served: Served, exc: StackFailed) -> None: ...

    def drivable(self, part: Part, variant: Variant, workload: str) -> bool: ...

    def next_trial(self, subject: Subject, point: Point, trial: int, warmup: float, *, first: bool) -> float: ...
