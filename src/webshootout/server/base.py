"""What both forms of a server share: the environment a run gives its servers, the server handle, the
start command and environment variables, and the wait for readiness."""

from __future__ import annotations

import os
import shlex
from dataclasses import dataclass
from pathlib import Path

from ..system import process
from ..services import certs as tls_certs
from ..services.assets import Assets
from ..stacks.catalog import Variant
from ..hosts.remote import Remote
from ..services.postgres import Postgres
from ..system.signals import uninterrupted

HOST = "127.0.0.1"
# Starts nginx terminating TLS in front of a stack whose [transport] says proxy = "nginx", then the app.
TLS_PROXY = Path(__file__).with_name("tls-proxy.sh")


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
    tls: tls_certs.Certs | None = None  # servers started with it serve TLS only (TLS_CERT, TLS_KEY)

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


def proxied(variant: Variant, env: Environment) -> bool:
    """Whether nginx terminates TLS in front of this server (it then listens on APP_PORT, in cleartext)."""
    return env.tls is not None and variant.transport.proxy == "nginx"


def command_for(variant: Variant, host: str, port: int, workers: int, app_port: int | None = None) -> str:
    """The start command at `host`:`port`; with `app_port`, the app's on 127.0.0.1:app_port behind the proxy."""
    if app_port is None:
        return variant.start.command.format(host=host, port=port, workers=workers)
    inner = variant.start.command.format(host=HOST, port=app_port, workers=workers)
    return f"exec bash {shlex.quote(str(TLS_PROXY))} {shlex.quote(inner)}"


def server_env(variant: Variant, env: Environment, port: int, run_dir: Path,
               app_port: int | None = None) -> dict[str, str]:
    # HOME is the run's directory: npm, JVM and Python caches go there, never into the harness user's home.
    values = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(run_dir),
        "LANG": "C.UTF-8", "HOST": env.host, "PORT": str(port), "WORKERS": str(env.worker_count),
        "DB_POOL": str(env.db_pool), "DB_POOL_TOTAL": str(env.db_pool_total),
        "SECRET_KEY": env.secret_key, "RUN_DIR": str(run_dir), **env.assets.env(),
    }
    if env.postgres is not None and env.postgres.connection is not None:
        values.update(env.postgres.connection.env())
    if env.tls is not None:
        values.update(tls_certs.server_env(env.tls))
    if app_port is not None:
        values.update(APP_PORT=str(app_port), TLS_PROXY_H2="1" if variant.transport.h2 else "0")
    values.update(dict(variant.start.env))
    return values


@dataclass
class Server:
    variant: Variant
    port: int
    log: Path
    running: process.Running
    user: str  # who the server runs as, with the reason when it is root (users.RunAs)
    host: str = HOST
    ca: Path | None = None  # the CA of the certificate it serves TLS with; None: it serves cleartext

    @property
    def origin(self) -> str:
        return f"{'https' if self.ca else 'http'}://{self.host}:{self.port}"

    def stop(self) -> str | None:
        """Stops the process group; returns what was left behind, or None."""
        return self.running.stop()


def await_ready(server: Server) -> Server:
    """Waits until the server is ready by its manifest (its ready path answers 200, or the HTTP/2 preface); on
    failure stops it (nothing is left) and re-raises."""
    try:
        process.wait_ready(server.running, server.origin, server.variant.start.ready, server.variant.start.timeout,
                           ca=server.ca)
    except BaseException:
        with uninterrupted():
            server.stop()
        raise
    return server
