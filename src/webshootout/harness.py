"""What check and run share: the environment of a run, and setting up, starting and verifying one server."""

from __future__ import annotations

import contextlib
import dataclasses
import secrets
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .services import assets
from .system import claims, cpulink, process, speed, users
from .stacks import provision
from .console import say
from . import server
from .server.settle import settle
from .hosts import ship
from .stacks.catalog import Variant
from .load import native
from .load.base import DriverError
from .system.jit import CompilerThreads
from .system.sampler import Sampler
from .system.signals import uninterrupted
from .hosts.placement import Placement
from .hosts.remote_group import RemoteGroup
from .services.postgres import Postgres
from .services.remote_postgres import RemotePostgres
from .config.profiles import Point
from .workloads import Context, registry, verify_all
from .workloads.probe import Link
from .workloads.keepalive import KeepAlive
from .workloads.keepalive import probe as probe_keepalive


@contextlib.contextmanager
def environment(work: Path, logs: Path, cpus: tuple[int, ...], need_database: bool,
                where: Placement | None = None) -> Iterator[server.Environment]:
    """Files, secret and (when needed) PostgreSQL for a run, on this machine or on the hosts `where` places
    the roles on; everything is stopped and removed on exit."""
    logs.mkdir(parents=True, exist_ok=True)
    stack = contextlib.ExitStack()
    try:
        blocked = users.blocker(work.parent)
        if blocked is not None:
            # Servers drop root, and nginx and php-fpm workers run as users of their own: all must reach the
            # assets and their RUN_DIR, which a folder above `work` like mktemp's (0700) would forbid.
            work = Path(tempfile.mkdtemp(prefix="webshootout-work-"))
            stack.callback(shutil.rmtree, work, ignore_errors=True)
            say(f"work files in {work}: {users.unreachable(blocked)}")
        work.mkdir(parents=True, exist_ok=True)
        work.chmod(0o755)  # PostgreSQL and privilege-dropping servers run as other users and must enter it
        files = assets.create(work / "assets")
        stack.enter_context(claims.claimed(work))  # a later command removes it if this harness is killed
        postgres = None
        if need_database:
            postgres = stack.enter_context(_database(work, logs, cpus, where))
        if where is None:
            yield server.Environment(postgres, files, secrets.token_hex(32), cpus, work / "servers", logs)
            return
        app, database, remote = where.host("app"), where.host("database"), where.remote("app")
        ship.ship(remote, [files.hash_file.parent])
        files = dataclasses.replace(files, publish=lambda path: ship.ship(remote, [path]))
        yield server.Environment(postgres, files, secrets.token_hex(32), app.cpus, work / "servers", logs,
                                 host=app.address, app=remote, database_cpus=database.cpus)
    finally:
        with uninterrupted():
            stack.close()
            shutil.rmtree(work / "servers", ignore_errors=True)


def _database(work: Path, logs: Path, cpus: tuple[int, ...], where: Placement | None):
    """The run's PostgreSQL: here on the server CPUs, or on the database host open to the app host only."""
    keep_log = logs / "postgres.log"
    if where is None:
        say("starting PostgreSQL")
        return Postgres(work / "postgres", cpus, log=say, keep_log=keep_log)
    database = where.host("database")
    say(f"starting PostgreSQL on {where.remote('database')}")
    return RemotePostgres(where.remote("database"), database.address, database.cpus,
                          clients=(where.host("app").address,), log=say, keep_log=keep_log)


def needs_database(variants: list[Variant]) -> bool:
    """Whether any variant uses PostgreSQL; such servers connect at start whatever workloads are selected."""
    return any(w in registry.DATABASE for v in variants if not v.unavailable for w, _ in v.workloads)


def workloads_of(variant: Variant, selected: tuple[str, ...] | None) -> list[str]:
    return [w for w, _ in variant.workloads if selected is None or w in selected]


def unserved(variant: Variant, point: Point) -> str | None:
    """Why the variant cannot be measured at the point's transport, or None: a stack is never measured over a
    transport its manifest's [transport] table does not claim (nor over another one in its place)."""
    if point.transport in variant.transport.serves:
        return None
    return (f"serves no {point.transport} (its framework.toml's [transport] table does not claim it), so "
            f"{point.label} is not measured")


@dataclass(frozen=True)
class Fault:
    stage: str  # setup | start | stop | trial
    reason: str
    log_tail: str = ""

    def __str__(self) -> str:
        tail = "\n".join("  | " + line for line in self.log_tail.splitlines())
        return f"{self.stage}: {self.reason}" + (f"\n{tail}" if tail else "")


class Failed(Exception):
    """Setup or start failed: nothing of the server is left running; `fault` says where and why."""

    def __init__(self, fault: Fault):
        super().__init__(str(fault))
        self.fault = fault


def _start(variant: Variant, env: server.Environment, install: bool) -> server.Server:
    """Setup (cached) then start; a failure raises Failed with the log's tail."""
    setup_log = env.logs / f"{variant.id}.setup.log"
    try:
        provision.setup(variant, setup_log, say, install=install)
    except provision.SetupError as exc:
        raise Failed(Fault("setup", str(exc), process.log_tail(setup_log))) from None
    say(f"starting {variant.id}" + (f" on {env.app}" if env.app else ""))
    if env.postgres is not None:
        # A server may fill its cache of world as it starts: from the rows as seeded, never from those the
        # previous server's updates wrote.
        env.postgres.reset()
    try:
        return server.start(variant, env)
    except process.StartError as exc:
        raise Failed(Fault("start", str(exc), process.log_tail(env.logs / f"{variant.id}.log"))) from None


@dataclass(frozen=True)
class Verification:
    workload: str
    reason: str | None  # None: the workload meets the contract
    log_tail: str = ""
    keepalive: KeepAlive | None = None  # connections the server needed for a few requests

    @property
    def passed(self) -> bool:
        return self.reason is None


class Served:
    """A started server inside `serving`: what check and run do with it."""

    def __init__(self, srv: server.Server, env: server.Environment):
        self.server, self.env = srv, env
        self._keepalive: KeepAlive | None = None

    @property
    def variant(self) -> Variant:
        return self.server.variant

    @property
    def user(self) -> str:
        """Who the server runs as, in words."""
        return self.server.user

    @property
    def tls(self) -> bool:
        """Whether it serves TLS (only TLS: it was started with the run's certificate)."""
        return self.server.ca is not None

    def alive(self) -> bool:
        return self.server.running.alive()

    def exit_code(self) -> int | None:
        return self.server.running.popen.returncode

    def log_tail(self) -> str:
        return process.log_tail(self.server.log)

    def settle(self) -> str | None:
        return settle(self.server)

    def check(self, workloads: list[str]) -> list[Verification]:
        """Settles, then proves each workload meets the contract and the manifest's keep-alive claim."""
        settled = self.settle()
        reasons = verify(self.server, self.env, workloads) if settled is None else dict.fromkeys(workloads, settled)
        verifications = []
        for workload in workloads:
            reason, kept = reasons[workload], None
            spec = registry.get(workload)
            if reason is None and not spec.messages and not spec.http2_only:
                kept = self.keepalive()
                reason = keepalive_mismatch(self.variant, kept, server.proxied(self.variant, self.env))
            verifications.append(Verification(workload, reason, self.log_tail() if reason else "", kept))
        return verifications

    def keepalive(self) -> KeepAlive:
        """How many TCP connections a few requests of the ready path took (measured once per server)."""
        if self._keepalive is None:
            self._keepalive = probe_keepalive(self.server.host, self.server.port, self.variant.start.ready,
                                              ca=self.server.ca)
        return self._keepalive

    def context(self, workload: str) -> Context:
        return context(self.server, self.env, workload)

    def samplers(self) -> tuple[Sampler, Sampler]:
        """Fresh samplers of the server and of PostgreSQL, which shares the server CPUs.

        On another host each read is an ssh round trip that would itself run there during the trial:
        those groups are read at the start and the end only, and the server's JIT is not watched."""
        database = self.env.postgres.running.group if self.env.postgres else None
        group = self.server.running.group
        if isinstance(group, RemoteGroup):
            server = Sampler(group, None)
        else:
            server = Sampler(group, jit=CompilerThreads.of(group.pids()) if group else None)
        return server, Sampler(database, None) if isinstance(database, RemoteGroup) else Sampler(database)

    def idle_sampler(self) -> Sampler:
        """The server's CPU while another is measured: read at the start and the end only, so that watching
        it adds nothing to the trial it watches."""
        return Sampler(self.server.running.group, None)


@contextlib.contextmanager
def serving(variant: Variant, env: server.Environment, *, install: bool,
            on_stop_fault: Callable[[Fault], None]) -> Iterator[Served]:
    """The one lifecycle of check and run: setup, start, (body), stop and leak check, whatever happens.

    Setup and start failures raise Failed; a leak at stop goes to on_stop_fault.
    """
    srv = _start(variant, env, install)
    try:
        yield Served(srv, env)
    finally:
        with uninterrupted():
            leak = srv.stop()
        if leak:
            on_stop_fault(Fault("stop", leak))


def cpu_link(server_cpus: tuple[int, ...], load_cpus: tuple[int, ...],
             where: Placement | None) -> cpulink.Link | None:
    """How far apart the first server CPU and the first load CPU are, when both roles run on this machine on
    CPUs of their own (cpulink.py says why it matters); None, having said why, when it cannot be measured."""
    if where is not None or set(server_cpus) & set(load_cpus):
        return None
    try:
        probe = cpulink.probe_with(native.binary().with_name("shootout-cpulink"), server_cpus[0], load_cpus[0])
        link = cpulink.Link(probe)
        link.calibrate(say)
    except (DriverError, cpulink.LinkError) as exc:
        say(f"cannot measure how far apart the server and load CPUs are, so trials do not wait for them: {exc}")
        return None
    return link


@contextlib.contextmanager
def machine_speed(load_cpus: tuple[int, ...], where: Placement | None) -> Iterator[speed.Speed | None]:
    """The speed probe on the first load CPU for the run (system/speed.py); None, having said why, where the load
    runs on another host or the probe cannot start."""
    if where is not None:
        yield None
        return
    try:
        probe = speed.Speed(native.binary().with_name("shootout-speed"), load_cpus[0])
    except (DriverError, speed.SpeedError) as exc:
        say(f"cannot measure the machine's speed, so trials do not record it: {exc}")
        yield None
        return
    try:
        yield probe
    finally:
        probe.close()


def keepalive_mismatch(variant: Variant, kept: KeepAlive, proxied: bool = False) -> str | None:
    """Why the measured keep-alive contradicts the manifest's [fairness] keepalive, or None. Behind the
    TLS-terminating proxy the client's connection is nginx's, which keeps it alive whatever the app does."""
    if proxied:
        return None if kept.kept_alive else (
            f"keep-alive: {kept.requests} requests took {kept.connections} TCP connections through the nginx "
            f"terminating TLS, which keeps them alive")
    claimed = variant.fairness.keepalive if variant.fairness else "on"
    if claimed == "on" and not kept.kept_alive:
        return (f"keep-alive: the manifest says \"on\" but {kept.requests} requests took {kept.connections} TCP "
                f"connections (the server closes them); fix the server or state a keepalive departure")
    if claimed == "off" and kept.kept_alive:
        return (f"keep-alive: the manifest says \"off\" but {kept.requests} requests shared one connection; "
                f"correct [fairness] keepalive")
    return None


def context(srv: server.Server, env: server.Environment, workload: str) -> Context:
    """A workload's verification context; a server that serves TLS is reached over it (HTTP/1.1)."""
    fairness = srv.variant.fairness
    return Context(srv.host, srv.port, srv.variant.path_of(workload), env.postgres, env.assets,
                   srv.variant.session_store, fairness.updates if fairness else None, link=Link(ca=srv.ca))


def verify(srv: server.Server, env: server.Environment, workloads: list[str]) -> dict[str, str | None]:
    """Per workload, None when it meets the contract, else the reason (request and difference).

    Each check's Date must change over DATE_TICK: the checks run one after another, and only then do
    their second answers come, so one wait serves them all."""
    return verify_all({workload: context(srv, env, workload) for workload in workloads})
