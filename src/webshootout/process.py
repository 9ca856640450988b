"""Starts a command in its own process group pinned to CPUs; waits for readiness; stops it; finds leaks."""

from __future__ import annotations

import os
import resource
import signal
import socket
import subprocess
import time
import urllib.error
import urllib.request
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import psutil

# Every process we start carries this variable with a per-start token, so processes that escaped the
# process group (setsid, daemonizing) are still found and stopped.
TOKEN_VAR = "WEBSHOOTOUT_TOKEN"
OWNER_VAR = "WEBSHOOTOUT_OWNER"  # pid of the harness that started it, so concurrent harnesses keep apart


class StartError(RuntimeError):
    pass


# 10,000 connections need 10,000 descriptors on each side; servers inherit the harness's limit.
FD_LIMIT = 1 << 20


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


def _tagged(token: str) -> list[psutil.Process]:
    found = []
    for proc in psutil.process_iter():
        try:
            if proc.environ().get(TOKEN_VAR) == token:
                found.append(proc)
        except (psutil.NoSuchProcess, psutil.AccessDenied, psutil.ZombieProcess):
            continue
    return found


@dataclass
class Running:
    """A started process group; `stop()` ends it and returns a description of anything that leaked."""

    popen: subprocess.Popen
    token: str
    log: Path
    port: int | None
    grace: float = 10.0
    stop_signal: int = signal.SIGTERM
    _stopped: bool = field(default=False, init=False)

    @property
    def pid(self) -> int:
        return self.popen.pid

    def alive(self) -> bool:
        return self.popen.poll() is None

    def processes(self) -> list[psutil.Process]:
        """The whole tree: the group leader, its descendants and anything carrying our token."""
        procs: dict[int, psutil.Process] = {}
        try:
            root = psutil.Process(self.pid)
            for proc in [root, *root.children(recursive=True)]:
                procs[proc.pid] = proc
        except psutil.NoSuchProcess:
            pass
        for proc in _tagged(self.token):
            procs.setdefault(proc.pid, proc)
        return list(procs.values())

    def _group(self) -> tuple[list[psutil.Process], list[psutil.Process]]:
        """Our live processes, split into those in the process group and those that escaped it."""
        inside, outside = [], []
        for proc in _tagged(self.token):
            try:
                (inside if os.getpgid(proc.pid) == self.pid else outside).append(proc)
            except ProcessLookupError:
                continue
        return inside, outside

    def stop(self) -> str | None:
        """Stop signal to the group, SIGKILL after the grace period; anything that escaped the group is
        killed too. Returns a description of what had to be cleaned up (a fault), or None."""
        if self._stopped:
            return None
        self._stopped = True
        problems = []
        try:
            os.killpg(self.pid, self.stop_signal)
        except ProcessLookupError:
            pass
        deadline = time.monotonic() + self.grace
        while time.monotonic() < deadline and (self.alive() or self._group()[0]):
            time.sleep(0.05)
        inside, outside = self._group()
        if self.alive() or inside:
            problems.append(f"did not stop within {self.grace:.0f}s of the stop signal and was killed")
            try:
                os.killpg(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        if outside:
            names = ", ".join(f"{p.pid} {_name(p)}" for p in outside)
            problems.append(f"left processes outside its process group, killed: {names}")
            for proc in outside:
                try:
                    proc.kill()
                except psutil.NoSuchProcess:
                    pass
        try:
            self.popen.wait(timeout=5)
        except subprocess.TimeoutExpired:
            pass
        # Children of a killed leader may still be on their way out; give them a moment, then insist.
        settle = time.monotonic() + 3
        while _tagged(self.token) and time.monotonic() < settle:
            time.sleep(0.05)
        stragglers = _tagged(self.token)
        if stragglers:
            problems.append("processes still running after stop, killed: "
                            + ", ".join(f"{p.pid} {_name(p)}" for p in stragglers))
            for proc in stragglers:
                try:
                    proc.kill()
                except psutil.NoSuchProcess:
                    pass
        late = time.monotonic() + 5
        while self.port and port_in_use(self.port) and time.monotonic() < late:
            time.sleep(0.1)
        if self.port and port_in_use(self.port):
            problems.append(f"port {self.port} is still in use after stop")
        return "; ".join(problems) or None


def _name(proc: psutil.Process) -> str:
    try:
        return proc.name()
    except psutil.Error:
        return "?"


def start(command: list[str] | str, *, cwd: Path, env: dict[str, str], cpus: tuple[int, ...], log: Path,
          port: int | None = None, user: str | None = None, grace: float = 10.0,
          stop_signal: int = signal.SIGTERM) -> Running:
    """Starts `command` (a bash string or argv) in a new process group pinned to `cpus`."""
    token = uuid.uuid4().hex
    argv = ["bash", "-c", command] if isinstance(command, str) else list(command)
    argv = ["taskset", "-c", ",".join(map(str, cpus)), *argv]
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("ab") as out:
        popen = subprocess.Popen(argv, cwd=cwd, env={**env, TOKEN_VAR: token, OWNER_VAR: str(os.getpid())}, stdout=out,
                                 stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL, process_group=0,
                                 user=user)
    return Running(popen, token, log, port, grace, stop_signal)


def wait_ready(running: Running, url: str, timeout: float) -> None:
    """Polls url until it answers 200; raises StartError when the process exits or time runs out."""
    deadline = time.monotonic() + timeout
    last = "no answer"
    while time.monotonic() < deadline:
        if not running.alive():
            raise StartError(f"exited with code {running.popen.returncode} before it was ready")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
                last = f"status {response.status}"
        except urllib.error.HTTPError as exc:
            last = f"status {exc.code}"
        except (urllib.error.URLError, OSError) as exc:
            last = str(getattr(exc, "reason", exc))
        time.sleep(0.2)
    raise StartError(f"not ready after {timeout:.0f}s: GET {url} -> {last}")
