"""One framework's server for the length of a `with`: environment, start, readiness, stop, leak check."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass
from pathlib import Path

from . import process
from .assets import Assets
from .catalog import Variant
from .remote import Remote
from .services.postgres import Postgres
from .signals import uninterrupted

HOST = "127.0.0.1"


@dataclass(frozen=True)
class Environment:
    """What every server of a run shares: the database, the files, the secret, the CPUs."""

    postgres: Postgres | None
    assets: Assets
    secret_key: str
    cpus: tuple[int, ...]
    scratch: Path  # per-server RUN_DIRs are made under it
    logs: Path
    workers: int | None = None  # WORKERS given to servers; None: one per server CPU
    host: str = HOST  # the address servers bind and every client reaches them on
    app: Remote | None = None  # the host that runs the servers (--hosts); None: this machine
    database_cpus: tuple[int, ...] | None = None  # PostgreSQL's CPUs when it has a host of its own

    @property
    def worker_count(self) -> int:
        return self.workers or len(self.cpus)

    @property
    def db_pool_total(self) -> int:
        """Database connections a server may open in all (docs/fairness.md): the pool-sizing rule of
        PostgreSQL's wiki and HikariCP, 2 x database CPUs + 1; on one host PostgreSQL runs on the server CPUs."""
        return 2 * len(self.database_cpus or self.cpus) + 1

    @property
    def db_pool(self) -> int:
        """Each process's share of db_pool_total when the server runs WORKERS processes."""
        return max(1, -(-self.db_pool_total // self.worker_count))


def command_for(variant: Variant, host: str, port: int, workers: int) -> str:
    return variant.start.command.format(host=host, port=port, workers=workers)


def server_env(variant: Variant, env: Environment, port: int, run_dir: Path) -> dict[str, str]:
    values = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/root"),
        "LANG": "C.UTF-8", "HOST": env.host, "PORT": str(port), "WORKERS": str(env.worker_count),
        "DB_POOL": str(env.db_pool), "DB_POOL_TOTAL": str(env.db_pool_total),
        "SECRET_KEY": env.secret_key, "RUN_DIR": str(run_dir), **env.assets.env(),
    }
    if env.postgres is not None and env.postgres.connection is not None:
        values.update(env.postgres.connection.env())
    values.update(dict(variant.start.env))
    return values


@dataclass
class Server:
    variant: Variant
    port: int
    log: Path
    running: process.Running
    host: str = HOST

    def stop(self) -> str | None:
        """Stops the process group; returns what was left behind, or None."""
        return self.running.stop()


def start(variant: Variant, env: Environment) -> Server:
    """Starts the server and waits until its ready path answers 200; on failure nothing is left running."""
    port = process.free_port()
    run_dir = env.scratch / variant.id
    if run_dir.exists():
        shutil.rmtree(run_dir)
    run_dir.mkdir(parents=True)
    # Not world-writable: a start script that drops privileges creates the subdirectories its workers
    # write to and hands them to the workers' user.
    os.chmod(run_dir, 0o755)
    log = env.logs / f"{variant.id}.log"
    running = process.start(command_for(variant, env.host, port, env.worker_count), cwd=variant.folder,
                            env=server_env(variant, env, port, run_dir), cpus=env.cpus, log=log, port=port)
    server = Server(variant, port, log, running)
    try:
        process.wait_ready(running, f"http://{HOST}:{port}{variant.start.ready}", variant.start.timeout)
    except BaseException:
        with uninterrupted():
            server.stop()
        raise
    return server
