"""The server interface's start for a server on the app host of a hosts file: started over ssh in a process group of its own,
sampled through the host's /proc, and checked for a port left bound after stop. Its files must be there
already, at the same paths: the harness ships them (ship.paths_for, and the assets) before it starts it."""

from __future__ import annotations

import posixpath
import subprocess
from dataclasses import dataclass
from pathlib import Path

from ..services import certs
from ..system import process
from . import base as server
from ..stacks.catalog import Variant
from ..hosts.remote import Remote, RemoteError, RemoteProcess, work_dir
from ..hosts.remote_group import RemoteGroup

# Seconds a port may stay bound after the server stopped before it counts as a leak (as process.Running).
PORT_SETTLE = 5.0

# Exits 0 once port argv[2] on address argv[1] can be bound, 1 if it still cannot after argv[3] seconds.
_PORT_FREED = r"""
import socket, sys, time
deadline = time.monotonic() + float(sys.argv[3])
while True:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind((sys.argv[1], int(sys.argv[2])))
            sys.exit(0)
        except OSError:
            if time.monotonic() > deadline:
                sys.exit(1)
    time.sleep(0.1)
"""

# The run directory, made afresh: not world-writable, as server.start makes it here.
_RUN_DIR = 'rm -rf -- "$1" && mkdir -p -- "$1" && chmod 0755 -- "$1"'


@dataclass
class RemoteRunning:
    """What the harness uses of process.Running, for a server on the app host."""

    process: RemoteProcess
    group: RemoteGroup
    host: str
    port: int

    @property
    def popen(self) -> subprocess.Popen:
        return self.process.popen  # the ssh client: its exit status is the server's

    @property
    def log(self) -> Path:
        return self.process.log

    def alive(self) -> bool:
        return self.process.alive()

    def stop(self) -> str | None:
        """Stops the group (RemoteProcess.stop); also reports the port still bound on the host after it."""
        remote = self.process.remote
        try:
            problems = [self.process.stop()]
        except RemoteError as exc:  # the host stopped answering: what runs there is unknown
            problems = [f"could not stop it on {remote}: {exc}"]
        try:
            freed = remote.run(["python3", "-c", _PORT_FREED, self.host, str(self.port), f"{PORT_SETTLE:g}"],
                               timeout=PORT_SETTLE + 15, check=False).returncode == 0
        except RemoteError as exc:
            problems.append(f"could not check port {self.port} on {remote}: {exc}")
        else:
            if not freed:
                problems.append(f"port {self.port} is still in use on {remote} after stop")
        return "; ".join(p for p in problems if p) or None


def _login(remote: Remote) -> str:
    user, at, _ = remote.host.ssh.rpartition("@")
    return user if at else "the ssh login"


def _certs_there(remote: Remote, made: certs.Certs, run_dir: str) -> dict[str, str]:
    """The run's certificate and key copied into the server's run directory on the app host (mode kept: the
    key stays 0600), removed with that directory; TLS_CERT and TLS_KEY naming them there."""
    there = posixpath.join(run_dir, "tls")
    remote.copy_folder(made.key.parent, there)
    return certs.server_env(certs.Certs(*(Path(there, path.name) for path in (made.ca, made.cert, made.key))))


def start(variant: Variant, env: server.Environment) -> server.Server:
    """Starts `variant` on env.app and waits until its ready path answers 200 at env.host; on failure nothing
    is left running there and process.StartError says why."""
    remote = env.app
    values = {}
    try:
        port = remote.free_port(env.host)
        app_port = remote.free_port(server.HOST) if server.proxied(variant, env) else None
        run_dir = work_dir("servers", variant.id)
        remote.run(["sh", "-c", _RUN_DIR, "run-dir", run_dir], timeout=60)
        if env.tls is not None:
            values = _certs_there(remote, env.tls, run_dir)
    except RemoteError as exc:
        raise process.StartError(f"cannot prepare {variant.id} on {remote}: {exc}") from None
    log = env.logs / f"{variant.id}.log"
    command = server.command_for(variant, env.host, port, env.worker_count, app_port)
    try:
        started = remote.start(["bash", "-c", command], log=log, cwd=str(variant.folder),
                               env={**server.server_env(variant, env, port, Path(run_dir), app_port), **values},
                               cpus=env.cpus)
    except RemoteError as exc:
        raise process.StartError(str(exc)) from None
    running = RemoteRunning(started, RemoteGroup(remote, started.pgid), env.host, port)
    # Servers there run as the ssh login: dropping privileges on a remote host is not done yet.
    return server.await_ready(server.Server(variant=variant, port=port, log=log, running=running,
                                            user=f"{_login(remote)} on {remote}", host=env.host,
                                            ca=env.tls.ca if env.tls else None))
