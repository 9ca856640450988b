"""PostgreSQL on the database host of a hosts file: initdb into this harness's folder there, started over ssh
pinned to the host's CPUs, open over TCP to the app host's address (the frameworks' role) and to the
harness's own address (the superuser, for seeding, resetting and verifying), each with a per-run password."""

from __future__ import annotations

import base64
import hashlib
import hmac
import ipaddress
import os
import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import psycopg

from ..hosts.placement import apt_install
from ..stacks.provision import SetupError
from ..hosts.remote import Remote, RemoteError, RemoteProcess, work_dir
from ..hosts.remote_group import RemoteGroup
from .postgres import DATABASE, ROLE, Cluster, PostgresError, server_settings

SCRAM_ITERATIONS = 4096  # PostgreSQL's default scram_iterations
SERVICE_USER = "postgres"  # PostgreSQL refuses to run as root
SHUTDOWN_GRACE = 15.0  # seconds a fast shutdown (SIGINT) may take before the group is ended by force

# Runs on the database host as root. $1 folder, $2 bindir, $3 superuser password verifier, $4 pg_hba.conf.
# The verifier, not the password, goes through the command line: others on either machine may read it there.
_PREPARE = r"""
set -e
dir=$1; bindir=$2
rm -rf -- "$dir"
id -u postgres >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin postgres
mkdir -p -- "$dir/sockets"
chown postgres: "$dir" "$dir/sockets"
chmod 700 "$dir" "$dir/sockets"
(umask 077; printf '%s\n' "$3" > "$dir/superuser")
chown postgres: "$dir/superuser"
runuser -u postgres -- "$bindir/initdb" -D "$dir/data" -U postgres --auth-local=peer \
  --auth-host=scram-sha-256 -E UTF8 --locale=C --pwfile="$dir/superuser" >/dev/null
rm -f -- "$dir/superuser"
printf '%s' "$4" > "$dir/data/pg_hba.conf"
"""


def scram_verifier(password: str, salt: bytes | None = None) -> str:
    """What PostgreSQL stores for a SCRAM-SHA-256 password (RFC 5802/7677); given as a role's password, it is
    taken as already hashed."""
    salt = salt if salt is not None else secrets.token_bytes(16)
    salted = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, SCRAM_ITERATIONS)
    stored = hashlib.sha256(hmac.digest(salted, b"Client Key", "sha256")).digest()
    server = hmac.digest(salted, b"Server Key", "sha256")
    salt_text, stored_text, server_text = (base64.b64encode(raw).decode() for raw in (salt, stored, server))
    return f"SCRAM-SHA-256${SCRAM_ITERATIONS}:{salt_text}${stored_text}:{server_text}"


def _hba_address(address: str) -> str:
    """An IP address as the one-address CIDR pg_hba.conf wants; a host name as it is (PostgreSQL resolves
    it)."""
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        if not address or any(c.isspace() or c in "\"#," for c in address):
            raise PostgresError(f"pg_hba.conf: {address!r} is not an IP address or host name") from None
        return address
    return f"{ip}/{ip.max_prefixlen}"


def hba_conf(clients: tuple[str, ...], harness: str) -> str:
    """pg_hba.conf: the frameworks' role from the app hosts only, the superuser from the harness only, both
    with a password; no other address, and no local connections."""
    lines = ["# Written by webshootout for one run: nothing else may log in.",
             *(f"host {DATABASE} {ROLE} {_hba_address(c)} scram-sha-256" for c in clients),
             f"host all postgres {_hba_address(harness)} scram-sha-256"]
    return "\n".join(lines) + "\n"


@dataclass
class RemoteRunning:
    """The postmaster's process group on the database host, as the sampler and `alive` checks see it."""

    process: RemoteProcess
    group: RemoteGroup

    def alive(self) -> bool:
        return self.process.alive()


@dataclass
class RemotePostgres(Cluster):
    """A cluster on `remote`'s host listening on `address` only; `clients` are the addresses the frameworks'
    role may log in from. Nothing remains on the host after stop: no process, no folder."""

    remote: Remote
    address: str
    cpus: tuple[int, ...]
    clients: tuple[str, ...] = field(kw_only=True)
    log: Callable[[str], None] = field(kw_only=True)
    keep_log: Path | None = field(kw_only=True)  # the local file PostgreSQL's log is streamed into
    max_connections: int = field(default=400, kw_only=True)
    running: RemoteRunning | None = field(default=None, init=False)
    _folder: str = field(default="", init=False)
    _password: str = field(default="", init=False, repr=False)  # the superuser's
    _port: int = field(default=0, init=False)
    _logfile: Path | None = field(default=None, init=False)

    def start(self) -> None:
        if not self.clients:
            raise PostgresError(f"{self.remote}: no client address may log in to PostgreSQL as {ROLE}")
        self._folder = work_dir("postgres")
        bindir = self._bindir()
        self._password = secrets.token_urlsafe(24)
        hba = hba_conf(self.clients, self._harness_address())
        verifier = scram_verifier(self._password)
        self._run(["sh", "-c", _PREPARE, "prepare", self._folder, bindir, verifier, hba],
                  "preparing the cluster", timeout=120)
        self.version = self._run([f"{bindir}/postgres", "--version"], "asking its version").stdout.strip()
        try:
            self._port = self.remote.free_port(self.address)
        except RemoteError as exc:
            raise PostgresError(f"PostgreSQL on {self.remote}: finding a free port failed: {exc}") from None
        self._logfile = self._new_logfile()
        argv = ["setpriv", f"--reuid={SERVICE_USER}", f"--regid={SERVICE_USER}", "--clear-groups", "--",
                f"{bindir}/postgres", "-D", f"{self._folder}/data", "-p", str(self._port),
                "-k", f"{self._folder}/sockets", *server_settings(self.address, self.max_connections),
                "-c", "log_connections=on"]  # the log shows where every client connected from
        started = self.remote.start(argv, log=self._logfile, cpus=self.cpus)
        self.running = RemoteRunning(started, RemoteGroup(self.remote, started.pgid))
        self._wait_ready(self._logfile)
        self._create(self.address, self._port)

    def _new_logfile(self) -> Path:
        """An empty local file for the server's output: `keep_log`, else a temporary file removed at stop."""
        if self.keep_log is None:
            handle, name = tempfile.mkstemp(prefix="webshootout-pg-", suffix=".log")
            os.close(handle)
            return Path(name)
        self.keep_log.unlink(missing_ok=True)  # the log of this cluster only, as the local one keeps
        return self.keep_log

    def _run(self, argv: list[str], doing: str, timeout: float = 60.0):
        try:
            return self.remote.run(argv, timeout=timeout)
        except RemoteError as exc:
            raise PostgresError(f"PostgreSQL on {self.remote}: {doing} failed: {exc}") from None

    def _bindir(self) -> str:
        """The newest PostgreSQL there; Debian's package is installed when there is none."""
        for attempt in range(2):
            found = self._run(["sh", "-c", "ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null; true"],
                              "looking for initdb")
            versions = [Path(p).parent for p in found.stdout.split()
                        if Path(p).parent.parent.name.isdigit()]
            if versions:
                return str(max(versions, key=lambda bindir: int(bindir.parent.name)))
            if attempt == 0:
                try:
                    apt_install(self.remote, ["postgresql", "postgresql-contrib"], self.log)
                except SetupError as exc:
                    raise PostgresError(str(exc)) from None
        raise PostgresError(f"{self.remote}: PostgreSQL not found: no /usr/lib/postgresql/*/bin/initdb")

    def _harness_address(self) -> str:
        """Our address as the host sees it: the client end of this ssh connection."""
        seen = self._run(["sh", "-c", 'echo "$SSH_CONNECTION"'], "reading SSH_CONNECTION").stdout.split()
        if not seen:
            raise PostgresError(f"{self.remote}: SSH_CONNECTION is empty: cannot tell the harness's address")
        return seen[0]

    def _password_sql(self, password: str) -> str:
        # The statement crosses the network in clear: it carries the verifier, which cannot be used to log in.
        return scram_verifier(password)

    def _admin(self, database: str = "postgres") -> psycopg.Connection:
        return psycopg.connect(host=self.address, port=self._port, user="postgres", password=self._password,
                               dbname=database, autocommit=True, connect_timeout=10)

    def stop(self) -> None:
        """Fast shutdown (SIGINT: clients are disconnected), then the group is ended by force if still there;
        the folder is removed in any case."""
        try:
            self._close_reader()
            if self.running is not None:
                self._shut_down(self.running.process)
        finally:
            self.running = None
            try:
                if self._folder:
                    self._run(["rm", "-rf", "--", self._folder], "removing its folder")
            finally:
                if self._logfile is not None and self.keep_log is None:
                    self._logfile.unlink(missing_ok=True)

    def _shut_down(self, started: RemoteProcess) -> None:
        self.remote.run(["sh", "-c", 'kill -s INT "$1"', "kill", str(started.pgid)], check=False, timeout=15)
        deadline = time.monotonic() + SHUTDOWN_GRACE
        while started.alive() and time.monotonic() < deadline:
            time.sleep(0.1)
        problem = started.stop(grace=5.0)
        if problem:
            self.log(f"PostgreSQL on {self.remote}: {problem}")
