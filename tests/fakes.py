"""A fake harness and load driver (in the spirit of hyperfine's mock executor): the run loop, resume, flags
and reports run in unit tests without starting a process. Integration tests use the real parts."""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, field
from pathlib import Path

from webshootout.services import assets
from webshootout.harness import Failed, Fault, Verification
from webshootout.load.base import LoadResult, LoadSpec, errors_of
from webshootout.system.sampler import Usage
from webshootout.server import Environment
from webshootout.services.postgres import PostgresError
from webshootout.workloads import Context
from webshootout.workloads.probe import Link

LATENCY = {"p50": 100.0, "p75": 120.0, "p90": 150.0, "p99": 300.0, "p99_9": 400.0, "p99_99": 500.0,
           "max": 600.0, "mean": 110.0, "stdev": 20.0}


class FakeDatabase:
    """A PostgreSQL whose reset fails once `fail_after` resets have passed (a lock a server holds)."""

    version = "postgres (fake)"

    def __init__(self, fail_after: int):
        self.resets, self.fail_after = 0, fail_after

    def reset(self) -> None:
        self.resets += 1
        if self.resets > self.fail_after:
            raise PostgresError("resetting the database before a trial failed: LockNotAvailable: lock timeout")


class FakeSampler:
    """Gives `usage` for the whole trial and `window` for any span asked of it."""

    def __init__(self, usage: Usage, window: Usage | None = None):
        self._usage, self.usage, self._window = usage, None, window or usage

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.usage = self._usage

    def during(self, start: float, end: float) -> Usage:
        assert self.usage is not None and start < end
        return self._window


@dataclass
class FakeServed:
    variant: object
    stack: FakeStack
    ca: Path | None = None  # the run's CA when started with its certificate (it serves TLS)
    user = "webshootout"

    @property
    def tls(self) -> bool:
        return self.ca is not None

    def alive(self) -> bool:
        return self.variant.id not in self.stack.dies

    def exit_code(self) -> int | None:
        return None if self.alive() else 1

    def log_tail(self) -> str:
        return "last line of the fake server's log"

    def settle(self) -> str | None:
        self.stack.events.append(("settle", self.variant.id))
        return None

    def check(self, workloads: list[str]) -> list[Verification]:
        self.settle()
        verifications = []
        for workload in workloads:
            self.stack.events.append(("verify", self.variant.id, workload))
            wrong = (self.variant.id, workload) in self.stack.wrong
            verifications.append(Verification(workload, f"{workload}: body differs" if wrong else None,
                                              self.log_tail() if wrong else ""))
        return verifications

    def context(self, workload: str) -> Context:
        return Context("127.0.0.1", 9, self.variant.path_of(workload), None, self.stack.assets, link=Link(ca=self.ca))

    def idle_sampler(self) -> FakeSampler:
        return FakeSampler(Usage(cpu_percent=0.5, rss_peak_mb=40.0, rss_mean_mb=35.0, samples=2))

    def samplers(self) -> tuple[FakeSampler, FakeSampler]:
        compiling = self.stack.compiling.pop(0) if self.stack.compiling else None
        return (FakeSampler(Usage(cpu_percent=97.0, rss_peak_mb=40.0, rss_mean_mb=35.0, samples=8,
                                  jit_cpu_percent=compiling),
                            Usage(cpu_percent=99.0, rss_peak_mb=40.0, rss_mean_mb=35.0, samples=8,
                                  jit_cpu_percent=compiling)),
                FakeSampler(Usage(cpu_percent=0.0, rss_peak_mb=0.0, rss_mean_mb=0.0, samples=8)))


@dataclass
class FakeStack:
    """Stands in for the harness module: no PostgreSQL, no server processes."""

    fails: set = field(default_factory=set)  # ids whose start fails
    leaks: set = field(default_factory=set)  # ids that leave a process behind at stop
    dies: set = field(default_factory=set)  # ids whose server exits during the first trial
    wrong: set = field(default_factory=set)  # (id, workload) pairs that fail verification
    database: FakeDatabase | None = None
    events: list = field(default_factory=list)
    assets: assets.Assets | None = None
    link: object = None  # what cpu_link hands the run: None, or a cpulink.Link over a fake probe
    speed: object = None  # what machine_speed hands the run: None, or a FakeSpeed
    compiling: list = field(default_factory=list)  # the JIT's share of a CPU in each window, in turn (then None)

    @contextlib.contextmanager
    def environment(self, work: Path, logs: Path, cpus, need_database: bool, where=None):
        work.mkdir(parents=True, exist_ok=True)
        logs.mkdir(parents=True, exist_ok=True)
        self.assets = assets.create(work / "assets")
        yield Environment(self.database, self.assets, "secret", tuple(cpus), work / "servers", logs)

    def needs_database(self, variants) -> bool:
        return False

    def cpu_link(self, server_cpus, load_cpus, where):
        return self.link

    @contextlib.contextmanager
    def machine_speed(self, load_cpus, where):
        yield self.speed

    @contextlib.contextmanager
    def serving(self, variant, env, *, install: bool, on_stop_fault):
        if variant.id in self.fails:
            raise Failed(Fault("start", "exited with code 3", "cannot start: bad config"))
        self.events.append(("start", variant.id) if env.tls is None else ("start", variant.id, "tls"))
        try:
            yield FakeServed(variant, self, env.tls.ca if env.tls else None)
        finally:
            self.events.append(("stop", variant.id))
            if variant.id in self.leaks:
                on_stop_fault(Fault("stop", "1 process left behind: fake (pid 1)"))


class FakeSpeed:
    """The machine's speed probe, answering `rates` in turn (million steps a second)."""

    def __init__(self, *rates: float):
        self.rates = list(rates)

    def measure(self) -> float:
        return self.rates.pop(0)


@dataclass
class FakeDriver:
    """Answers every LoadSpec with a made-up result; `interrupt_at` raises Ctrl-C on that call."""

    rps: float = 10_000.0
    errors: int = 0
    error_kind: str = "status"
    client_cpu_s: float = 0.1
    interrupt_at: int | None = None
    window: tuple[float, float] | None = None  # the measured window on the harness's clock, as native.run gives
    specs: list = field(default_factory=list)

    def __call__(self, spec: LoadSpec, log: Path | None = None) -> LoadResult:
        self.specs.append(spec)
        if self.interrupt_at is not None and len(self.specs) == self.interrupt_at:
            raise KeyboardInterrupt
        requests = int(self.rps * spec.duration)
        return LoadResult(driver="fake", requests=requests, duration_s=spec.duration, rps=self.rps,
                          bytes_read=requests * 100, latency_us=dict(LATENCY), errors=errors_of(**{self.error_kind: self.errors}),
                          client_cpu_s=self.client_cpu_s * spec.duration, validated=True,
                          sessions=spec.target.sessions, status_counts={"200": requests}, window=self.window)
