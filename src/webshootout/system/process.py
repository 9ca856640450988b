"""Starts a command in its own process group and cgroup pinned to CPUs; waits for readiness; stops it; finds
leaks; keeps the harness off the server CPUs."""

from __future__ import annotations

import contextlib
import os
import resource
import signal
import socket
import subprocess
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

import psutil

from . import cgroup, httpget
from . import ready as readiness

OWNER_VAR = "WEBSHOOTOUT_OWNER"  # pid of the harness that started it, so concurrent harnesses keep apart


class StartError(RuntimeError):
    pass


# 10,000 connections need 10,000 descriptors on each side; servers inherit the harness's limit.
FD_LIMIT = 1 << 20
# Seconds between two readiness polls of a starting server: a refused connect costs microseconds, and a check
# starts a server per variant and transport (~250 in the lineup), each waiting half a poll on average.
READY_POLL = 0.05


def raise_fd_limit(wanted: int = FD_LIMIT) -> int:
    """Raises this process's open-file limit (the hard one too when root); returns the soft limit now."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < wanted:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, wanted))
            return wanted
        except (ValueError, OSError):
            wanted = hard  # not root: the hard limit is as far as we may go
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft < target:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return max(soft, target)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def port_in_use(port: int) -> bool:
    with socket.socket() as sock:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return True
        return False


def log_tail(path: Path, lines: int = 20) -> str:
    try:
        text = path.read_text(errors="replace")
    except FileNotFoundError:
        return "(no log)"
    return "\n".join(text.splitlines()[-lines:]) or "(log is empty)"


@dataclass(frozen=True)
class Launch:
    """What to start and how: a bash string or argv, pinned to `cpus`, output to `log`, optionally as
    another user; stopped with `stop_signal`, killed `grace` seconds later."""

    command: list[str] | str
    cwd: Path
    env: dict[str, str]
    cpus: tuple[int, ...]
    log: Path
    port: int | None = None
    user: str | None = None
    grace: float = 10.0
    stop_signal: int = signal.SIGTERM


@dataclass
class Running:
    """A started process group in its own cgroup; `stop()` ends it and returns a description of anything
    that leaked."""

    popen: subprocess.Popen
    group: cgroup.Group
    spec: Launch
    _stopped: bool = field(default=False, init=False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    @property
    def log(self) -> Path:
        return self.spec.log

    @property
    def port(self) -> int | None:
        return self.spec.port

    def alive(self) -> bool:
        return self.popen.poll() is None

    def _members(self) -> set[int]:
        try:
            return self.group.pids()
        except FileNotFoundError:  # removed at stop
            return set()

    def _split(self) -> tuple[set[int], set[int]]:
        """Our live processes, split into those in the process group and those that escaped it."""
        inside, outside = set(), set()
        for pid in self._members():
            try:
                (inside if os.getpgid(pid) == self.pid else outside).add(pid)
            except ProcessLookupError:
                continue
        return inside, outside

    def stop(self) -> str | None:
        """Stop signal to the group, SIGKILL after the grace period; anything that escaped the group is
        killed too; the cgroup must then be empty and is removed. Returns a description of what had to be
        cleaned up (a fault), or None."""
        if self._stopped:
            return None
        self._stopped = True
        grace = self.spec.grace
        problems = []
        _signal_group(self.pid, self.spec.stop_signal)
        deadline = time.monotonic() + grace
        while time.monotonic() < deadline and (self.alive() or self._split()[0]):
            time.sleep(0.05)
        inside, outside = self._split()
        if self.alive() or inside:
            problems.append(f"did not stop within {grace:.0f}s of the stop signal and was killed")
            _signal_group(self.pid, signal.SIGKILL)
        if outside:
            problems.append(f"left processes outside its process group, killed: {_names(outside)}")
            _kill(outside)
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # Children of a killed leader may still be on their way out; give them a moment, then insist.
        settle = time.monotonic() + 3
        while self._members() and time.monotonic() < settle:
            time.sleep(0.05)
        stragglers = self._members()
        if stragglers:
            problems.append(f"processes still running after stop, killed: {_names(stragglers)}")
            _kill(stragglers)
        problems.extend(self._remove_group())
        late = time.monotonic() + 5
        while self.port and port_in_use(self.port) and time.monotonic() < late:
            time.sleep(0.1)
        if self.port and port_in_use(self.port):
            problems.append(f"port {self.port} is still in use after stop")
        return "; ".join(problems) or None

    def _remove_group(self) -> list[str]:
        deadline = time.monotonic() + 5
        while self._members() and time.monotonic() < deadline:
            time.sleep(0.05)
        left = self._members()
        if left:
            return [f"processes survived SIGKILL: {_names(left)}"]
        try:
            self.group.remove()
        except cgroup.CgroupError as exc:
            return [str(exc)]
        return []


def _signal_group(pgid: int, signum: int) -> None:
    try:
        os.killpg(pgid, signum)
    except ProcessLookupError:
        pass


def _kill(pids: set[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            pass


def _names(pids: set[int]) -> str:
    return ", ".join(f"{pid} {_name(pid)}" for pid in sorted(pids))


def _name(pid: int) -> str:
    try:
        return psutil.Process(pid).name()
    except psutil.Error:
        return "?"


# The child waits on stdin until the harness has put it in its cgroup, so nothing it forks can escape the
# group; only then does it exec the command (with stdin from /dev/null, as servers expect).
_GATE = 'IFS= read -r go && [ "$go" = go ] && exec "$@" </dev/null; exit 127'


def start(command: list[str] | str, *, cwd: Path, env: dict[str, str], cpus: tuple[int, ...], log: Path,
          port: int | None = None) -> Running:
    """Starts `command` (a bash string or argv) in a new process group and cgroup pinned to `cpus`."""
    return launch(Launch(command, cwd, env, cpus, log, port))


def launch(spec: Launch) -> Running:
    """Starts a Launch in a new process group and cgroup; StartError when it cannot be placed in the group."""
    token = uuid.uuid4().hex
    group = cgroup.create(token)
    argv = ["bash", "-c", spec.command] if isinstance(spec.command, str) else list(spec.command)
    argv = ["taskset", "-c", ",".join(map(str, spec.cpus)), "sh", "-c", _GATE, "webshootout-gate", *argv]
    spec.log.parent.mkdir(parents=True, exist_ok=True)
    env = {**spec.env, cgroup.TOKEN_VAR: token, OWNER_VAR: str(os.getpid())}
    try:
        with spec.log.open("ab") as out:
            popen = subprocess.Popen(argv, cwd=spec.cwd, env=env, stdout=out, stderr=subprocess.STDOUT,
                                     stdin=subprocess.PIPE, bufsize=0, process_group=0, user=spec.user)
    except BaseException:
        group.remove()
        raise
    try:
        group.add(popen.pid)
    except OSError as exc:
        if popen.poll() is None:  # alive but outside the group: it must not run unaccounted
            popen.kill()
            popen.wait()
            group.remove()
            raise StartError(f"could not put the process in its cgroup: {exc}") from None
    # A child that already failed (taskset refusing the CPUs) has closed its end; wait_ready reports its exit.
    with contextlib.suppress(BrokenPipeError):
        popen.stdin.write(b"go\n")
    popen.stdin.close()
    return Running(popen, group, spec)


@contextlib.contextmanager
def pin_harness(server_cpus: tuple[int, ...]) -> Iterator[tuple[int, ...]]:
    """Runs this process, every thread of it and every thread or child started inside the `with` on the CPUs
    it may use other than the server's, so sampling and bookkeeping take no time from the server; yields
    those CPUs. With none left (one CPU shared by everything) it yields () and nothing changes.

    Scope it to the measured trials: children inherit the affinity, and builds should keep every CPU.
    """
    before = os.sched_getaffinity(0)
    away = tuple(sorted(before - set(server_cpus)))
    if not away:
        yield ()
        return
    _pin_threads(away)
    try:
        yield away
    finally:
        _pin_threads(before)


def _pin_threads(cpus) -> None:
    # sched_setaffinity acts on one thread: each thread of the process is set in turn.
    for tid in os.listdir("/proc/self/task"):
        with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
            os.sched_setaffinity(int(tid), cpus)


def wait_ready(running: Running, origin: str, ready: str, timeout: float, ca: Path | None = None) -> None:
    """Polls the server at `origin` until it is ready by its manifest's `ready` (system/ready.py; https: verified
    against the PEM CA `ca`); raises StartError when the process exits or time runs out."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if not running.alive():
            raise StartError(f"exited with code {running.popen.returncode} before it was ready")
        try:
            last = readiness.problem(origin, ready, timeout=2, ca=ca)
            if last is None:
                return
        except httpget.GetError as exc:
            last = str(exc)
        time.sleep(READY_POLL)
    raise StartError(f"not ready after {timeout:.0f}s: {last}")
