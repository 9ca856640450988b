"""Runs commands on a host of the hosts file over OpenSSH: one master connection per host (ControlMaster),
every remote command quoted word by word, and always under a time limit at both ends."""

from __future__ import annotations

import os
import posixpath
import re
import select
import socket
import shlex
import shutil
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

from ..config.hostsfile import Host
from ..system.cgroup import TOKEN_VAR

CONNECT_TIMEOUT = 10
# The master outlives a harness killed with SIGKILL by this many idle seconds at most.
CONTROL_PERSIST = 120
# Seconds between the remote `timeout` sending SIGTERM and SIGKILL.
KILL_AFTER = 5
_ENV_NAME = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
# What a harness leaves on a host lives under REMOTE_ROOT/<owner tag>, and every process it starts there
# carries the tag in REMOTE_OWNER_VAR: a later harness on the same machine can tell what a dead one left.
REMOTE_ROOT = "/var/tmp/webshootout"
REMOTE_OWNER_VAR = "WEBSHOOTOUT_REMOTE_OWNER"


def owner_prefix() -> str:
    """What every owner tag of a harness on this machine starts with."""
    return f"{socket.gethostname()}-"


def owner_tag(pid: int | None = None) -> str:
    """This harness as remote hosts know it: the machine it runs on and its pid."""
    return f"{owner_prefix()}{os.getpid() if pid is None else pid}"


# Prints a TCP port free on the address argv[1] there (the kernel's choice, as process.free_port here).
_FREE_PORT = r"""
import socket, sys
s = socket.socket(socket.AF_INET6 if ":" in sys.argv[1] else socket.AF_INET)
s.bind((sys.argv[1], 0))
print(s.getsockname()[1])
"""


def work_dir(*parts: str) -> str:
    """A path on a remote host under this harness's own folder there."""
    return posixpath.join(REMOTE_ROOT, owner_tag(), *parts)


class RemoteError(RuntimeError):
    pass


def remote_command(argv: list[str], *, env: dict[str, str] | None = None, cwd: str | None = None,
                   timeout: float | None = None) -> str:
    """The shell command line sshd hands to the login shell: every word quoted, so nothing is re-parsed."""
    if not argv or not all(isinstance(word, str) for word in argv):
        raise ValueError(f"expected a non-empty list of strings, got {argv!r}")
    words = list(argv)
    if env:
        bad = [name for name in env if not _ENV_NAME.match(name)]
        if bad:
            raise ValueError(f"environment variable name {bad[0]!r} is not a valid name")
        words = ["env", *(f"{name}={value}" for name, value in env.items()), *words]
    if timeout is not None:
        words = ["timeout", "-k", str(KILL_AFTER), f"{timeout:g}", *words]
    command = "exec " + shlex.join(words)
    return f"cd {shlex.quote(cwd)} && {command}" if cwd else command


def _path_option(path: Path) -> str:
    """A path as an ssh -o value: quoted (ssh splits values on spaces) and with % escaped (ssh expands %x)."""
    text = str(path)
    if '"' in text:
        raise RemoteError(f"ssh cannot take a path with a double quote in it: {text}")
    return '"' + text.replace("%", "%%") + '"'


class Remote:
    """One host of the hosts file; `close()` (or leaving the with-block) ends its master connection."""

    def __init__(self, host: Host):
        self.host = host
        # mkdtemp makes it 0700: whoever can reach the master's socket is logged in to the host.
        self._control = Path(tempfile.mkdtemp(prefix="ws-ssh-"))
        self._socket = self._control / "master"
        self._started: list[RemoteProcess] = []

    def __enter__(self) -> Remote:
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"{self.host.role} ({self.host.ssh})"

    def ssh_argv(self, command: str | None, *options: str) -> list[str]:
        """The ssh client's argv for `command` (None: no command), over the master connection."""
        host = self.host
        argv = ["ssh", "-o", "BatchMode=yes", "-o", "StrictHostKeyChecking=yes",
                "-o", f"ConnectTimeout={CONNECT_TIMEOUT}", "-o", "ServerAliveInterval=5",
                "-o", "ServerAliveCountMax=3", "-o", "LogLevel=ERROR",
                "-o", f"ControlPath={_path_option(self._socket)}",
                "-p", str(host.port)]
        if host.known_hosts:
            argv += ["-o", f"UserKnownHostsFile={_path_option(host.known_hosts)}",
                     "-o", "GlobalKnownHostsFile=/dev/null"]
        if host.identity:
            argv += ["-o", f"IdentityFile={_path_option(host.identity)}", "-o", "IdentitiesOnly=yes"]
        argv += [*(options or ("-o", "ControlMaster=no")), "--", host.ssh]
        return argv if command is None else [*argv, command]

    def _ensure_master(self) -> None:
        if self._socket.exists():
            return
        log = self._control / "master.log"
        # -f: ssh forks once logged in; stderr goes to a file, as the forked master would hold a pipe open.
        with log.open("wb") as err:
            try:
                done = subprocess.run(self.ssh_argv(None, "-o", "ControlMaster=yes", "-o",
                                                    f"ControlPersist={CONTROL_PERSIST}", "-N", "-f"),
                                      stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                                      timeout=CONNECT_TIMEOUT + 10)
            except subprocess.TimeoutExpired:
                raise RemoteError(f"{self}: ssh did not connect within {CONNECT_TIMEOUT + 10}s") from None
        if done.returncode != 0:
            raise RemoteError(f"{self}: ssh cannot connect (exit {done.returncode}): "
                              f"{log.read_text(errors='replace').strip()}")

    def _call(self, command: str, timeout: float, stdin=subprocess.DEVNULL,
              data: bytes | None = None) -> subprocess.CompletedProcess:
        self._ensure_master()
        given = {"stdin": stdin} if data is None else {"input": data}
        try:
            return subprocess.run(self.ssh_argv(command), capture_output=True, timeout=timeout, **given)
        except subprocess.TimeoutExpired:
            raise RemoteError(f"{self}: no answer within {timeout:g}s to: {command}") from None

    def _checked(self, command: str, timeout: float, done: subprocess.CompletedProcess) -> None:
        if done.returncode == 0:
            return
        why = {124: f"timed out after {timeout:g}s", 255: "ssh failed"}.get(done.returncode,
                                                                                f"exit {done.returncode}")
        raise RemoteError(f"{self}: {why}: {command}\n{done.stderr.decode(errors='replace').strip()[-2000:]}")

    def run(self, argv: list[str], *, timeout: float = 60.0, env: dict[str, str] | None = None,
            cwd: str | None = None, check: bool = True) -> subprocess.CompletedProcess:
        """Runs argv there and returns it completed, output as text; killed there after `timeout` seconds."""
        # Tagged too: what a killed harness left running through it (a load) is swept like a started group.
        command = remote_command(argv, env={**(env or {}), REMOTE_OWNER_VAR: owner_tag()}, cwd=cwd, timeout=timeout)
        done = self._call(command, timeout + KILL_AFTER + CONNECT_TIMEOUT)
        if check:
            self._checked(command, timeout, done)
        return subprocess.CompletedProcess(argv, done.returncode, done.stdout.decode(errors="replace"),
                                           done.stderr.decode(errors="replace"))

    def free_port(self, address: str) -> int:
        """A TCP port free on `address` of the host, as process.free_port finds one here."""
        return int(self.run(["python3", "-c", _FREE_PORT, address], timeout=30).stdout)

    def read_file(self, path: str, *, timeout: float = 60.0) -> bytes:
        command = remote_command(["cat", "--", path], timeout=timeout)
        done = self._call(command, timeout + KILL_AFTER + CONNECT_TIMEOUT)
        self._checked(command, timeout, done)
        return done.stdout

    def write_file(self, path: str, data: bytes, *, timeout: float = 60.0) -> None:
        """Writes `data` to `path` there, its folder made if missing."""
        command = f"mkdir -p -- {shlex.quote(posixpath.dirname(path))} && " + remote_command(
            ["sh", "-c", 'cat > "$1"', "write", path], timeout=timeout)
        done = self._call(command, timeout + KILL_AFTER + CONNECT_TIMEOUT, data=data)
        self._checked(command, timeout, done)

    def copy_folder(self, local: Path, remote_dir: str, *, exclude: tuple[str, ...] = (),
                    timeout: float = 600.0) -> None:
        """Copies the contents of `local` into `remote_dir` (made if missing) with tar over ssh; names in
        `exclude` are left out at any depth."""
        if not local.is_dir():
            raise RemoteError(f"{self}: cannot copy {local}: not a folder")
        command = f"mkdir -p -- {shlex.quote(remote_dir)} && " + remote_command(
            ["tar", "-xf", "-"], cwd=remote_dir, timeout=timeout)
        excluded = [f"--exclude={name}" for name in exclude]
        tar = subprocess.Popen(["tar", "-C", str(local), *excluded, "-cf", "-", "."], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        try:
            done = self._call(command, timeout + KILL_AFTER + CONNECT_TIMEOUT, stdin=tar.stdout)
        finally:
            tar.stdout.close()
            try:
                tar.wait(timeout=5)
            except subprocess.TimeoutExpired:
                tar.kill()
                tar.wait()
        with tar.stderr:
            if tar.returncode != 0:
                why = tar.stderr.read().decode(errors="replace")
                raise RemoteError(f"{self}: tar of {local} failed: {why}")
        self._checked(command, timeout, done)

    def start(self, argv: list[str], *, log: Path, env: dict[str, str] | None = None, cwd: str | None = None,
              cpus: tuple[int, ...] | None = None) -> RemoteProcess:
        """Starts argv there in a process group of its own (pinned to `cpus`), its output streamed into the
        local file `log`; the process lives as long as its ssh session."""
        token = uuid.uuid4().hex
        words = ["taskset", "-c", ",".join(map(str, cpus)), *argv] if cpus else list(argv)
        # sshd starts each session's shell with setsid(): its pid is the new group's id, and exec keeps it.
        # The pid is told only once in the folder, so that a start that cannot even begin fails here.
        command = (f"cd {shlex.quote(cwd)} || exit 126; " if cwd else "") + "echo $$ >&2; " + remote_command(
            words, env={**(env or {}), TOKEN_VAR: token, REMOTE_OWNER_VAR: owner_tag()}) + " 2>&1"
        self._ensure_master()
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as out:
            popen = subprocess.Popen(self.ssh_argv(command), stdin=subprocess.DEVNULL, stdout=out,
                                     stderr=subprocess.PIPE)
        ready, _, _ = select.select([popen.stderr], [], [], CONNECT_TIMEOUT + 10)
        first = popen.stderr.readline().decode(errors="replace").strip() if ready else ""
        if not first.isdigit():
            popen.kill()
            rest = popen.communicate()[1].decode(errors="replace")
            why = f"{first}\n{rest}".strip()
            raise RemoteError(f"{self}: could not start {shlex.join(argv)}: {why}")
        running = RemoteProcess(self, popen, int(first), token, log)
        self._started.append(running)
        return running

    def close(self) -> None:
        """Stops what was started and not stopped yet, ends the master connection and removes its folder.

        Ending a session alone would not do: a remote process without a terminal outlives its session."""
        for running in self._started:
            running.stop()
        if self._socket.exists():
            subprocess.run(self.ssh_argv(None, "-O", "exit"), capture_output=True, timeout=CONNECT_TIMEOUT)
        shutil.rmtree(self._control, ignore_errors=True)


# Stops a process group there, then anything carrying the start's token that left the group.
# $0 the token's variable name, $1 group id, $2 token, $3 tenths of a second of grace.
# (`kill -s SIG -- -GROUP` is the form both dash and bash read as a process group.)
_STOP = r"""
kill -s TERM -- -"$1" 2>/dev/null
i=0
while kill -s 0 -- -"$1" 2>/dev/null; do
  if [ "$i" -ge "$3" ]; then
    kill -s KILL -- -"$1" 2>/dev/null; echo "did not stop within the grace period and was killed"; break
  fi
  i=$((i + 1)); sleep 0.1
done
for f in $(grep -lsxzF "$0=$2" /proc/[0-9]*/environ); do
  p=${f#/proc/}; p=${p%/environ}; name=$(cat "/proc/$p/comm" 2>/dev/null)
  kill -s KILL "$p" 2>/dev/null && echo "left process $p ($name) outside its group, killed"
done
"""


@dataclass
class RemoteProcess:
    """A process group started on a host; `stop()` ends it and says what had to be killed, if anything."""

    remote: Remote
    popen: subprocess.Popen  # the local ssh client carrying the session
    pgid: int
    token: str
    log: Path
    stopped: str | None = field(default=None, init=False)  # what stop() said, once it ran

    def alive(self) -> bool:
        return self.popen.poll() is None

    def stop(self, grace: float = 10.0) -> str | None:
        """SIGTERM to the remote group, SIGKILL after `grace` seconds; escaped processes are killed too.
        Only the first call acts; later ones return what it found."""
        if self.stopped is not None:
            return self.stopped or None
        # Run even when the session has ended: what escaped the group may still be running.
        tenths = str(round(grace * 10))
        done = self.remote.run(["sh", "-c", _STOP, TOKEN_VAR, str(self.pgid), self.token, tenths],
                               timeout=grace + 15, check=False)
        problems = done.stdout.splitlines()
        if done.returncode != 0:
            problems.append(f"stopping failed (exit {done.returncode}): {done.stderr.strip()}")
        deadline = time.monotonic() + 10
        while self.popen.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        if self.popen.poll() is None:
            self.popen.kill()
            problems.append("its ssh session did not end and was killed")
        self.popen.wait()
        self.popen.stderr.close()
        self.stopped = "; ".join(problems)
        return self.stopped or None
