"""What harnesses that no longer run left behind (kill -9, power loss): the servers and PostgreSQL they
started, their cgroups, their throwaway directories. Every command sweeps them at its start; what a live
harness owns, including one running in parallel, is never touched.

Who owns what:
- A started process names its harness in WEBSHOOTOUT_OWNER (process.launch). PostgreSQL writes its process
  titles over its environment, so a group where no member shows the tag belongs to the parent of its oldest
  member: the harness that started it, until the harness dies and init adopts it.
  An owner runs when a process with its pid exists and started no later than what it owns: a pid the kernel
  handed out again after the harness died belongs to a younger process.
- A throwaway directory is claimed when created (claims.py).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from . import cgroup
from .claims import REGISTRY, Say, StartOf, claims_in, start_of, stat_fields, sweep_claims
from ..console import say
from .process import OWNER_VAR

PROC = Path("/proc")
INIT = 1
# A start that is not part of a claimed run (a test starting a server) holds an empty group only for moments:
# between creating and filling it, and at stop.
EMPTY_GRACE = 10.0
STOP_GRACE = 5.0
PG_TEMP_PREFIX = "webshootout-pg-"  # clusters services/postgres.py puts in the temp directory


def _tagged_owner(pid: int) -> int | None:
    try:
        environ = (PROC / str(pid) / "environ").read_bytes().split(b"\0")
    except OSError:
        return None
    prefix = f"{OWNER_VAR}=".encode()
    value = next((item[len(prefix):] for item in environ if item.startswith(prefix)), b"")
    return int(value) if value.isdigit() else None


@dataclass(frozen=True)
class Proc:
    """What the sweep needs to know of one process."""

    pid: int
    ppid: int
    start: int  # clock ticks after boot
    owner: int | None  # the WEBSHOOTOUT_OWNER its environment shows
    name: str = "?"

    @classmethod
    def read(cls, pid: int) -> Proc | None:
        fields = stat_fields(pid)
        if fields is None or fields[0] in ("Z", "X"):
            return None
        try:
            name = (PROC / str(pid) / "comm").read_text().strip()
        except OSError:
            name = "?"
        return cls(pid, int(fields[1]), int(fields[19]), _tagged_owner(pid), name)

    def running(self) -> bool:
        """Still this process (not gone, not a zombie, not a newer process with its pid)."""
        return start_of(self.pid) == self.start


def owner_of(members: list[Proc]) -> int | None:
    """The harness that started a group of processes; None when init has adopted them (nobody holds them)."""
    tagged = sorted((p for p in members if p.owner is not None), key=lambda p: p.start)
    if tagged:
        return tagged[0].owner
    parent = min(members, key=lambda p: p.start).ppid
    return parent if parent > INIT else None


def left_behind(members: list[Proc], start_of: StartOf = start_of) -> tuple[bool, int | None]:
    """Whether a group of processes outlived its harness, and that harness's pid when known.

    The harness started before every process it owns; a process with its pid that started later is another
    program that got the pid after the harness died.
    """
    owner = owner_of(members)
    if owner is None:
        return True, None
    started = start_of(owner)
    return started is None or started > min(p.start for p in members), owner


@dataclass
class Group:
    """A group of processes of one start that its harness left behind."""

    name: str
    dirs: list[Path]  # its cgroup directories; none without a cgroup hierarchy
    members: list[Proc]
    owner: int | None
    cwd: Path | None = None  # where its oldest process ran, read before stopping it

    @property
    def oldest(self) -> Proc:
        return min(self.members, key=lambda p: p.start)

    def what(self) -> str:
        name = self.oldest.name
        return "PostgreSQL" if name.startswith("postgres") else f"server {name}"

    def line(self) -> str:
        whose = f"from harness {self.owner}" if self.owner else "whose harness"
        return f"removed leftover {self.what()} (pid {self.oldest.pid}, {whose} that no longer runs)"

    def live(self) -> list[Proc]:
        """Its processes still running, including any started since it was found."""
        found = {p.pid: p for p in self.members}
        for directory in self.dirs:
            with contextlib.suppress(OSError):
                for pid in map(int, (directory / "cgroup.procs").read_text().split()):
                    if pid not in found and (proc := Proc.read(pid)):
                        found[pid] = proc
        return [p for p in found.values() if p.running()]


Found = Iterator[tuple[str, list[Path], list[Proc]]]  # a group's name, cgroup directories and processes


def _cgroup_groups(say: Say, removed: list[str], sweep_empty: bool) -> Found:
    """Every non-empty group of ours with its processes; with `sweep_empty`, empty ones older than EMPTY_GRACE
    are removed."""
    now = time.time()
    for name, dirs in sorted(cgroup.every_group().items()):
        pids: set[int] = set()
        for directory in dirs:
            with contextlib.suppress(OSError):  # removed meanwhile by its harness
                pids.update(map(int, (directory / "cgroup.procs").read_text().split()))
        members = [p for p in map(Proc.read, sorted(pids)) if p is not None]
        if members:
            yield name, dirs, members
        elif sweep_empty and not pids and all(_older_than(d, now - EMPTY_GRACE) for d in dirs):
            try:
                cgroup.remove(dirs)
            except cgroup.CgroupError as exc:
                say(f"could not remove leftover cgroup {name}: {exc}")
            else:
                removed.append(f"removed empty leftover cgroup {name}")
                say(removed[-1])


def _older_than(path: Path, moment: float) -> bool:
    try:
        return path.stat().st_mtime < moment
    except FileNotFoundError:
        return False


def _tagged_groups() -> Found:
    """Without a cgroup hierarchy: the processes grouped by the start token in their environment."""
    needle = f"{cgroup.TOKEN_VAR}=".encode()
    by_token: dict[str, list[Proc]] = {}
    for entry in PROC.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environ = (entry / "environ").read_bytes().split(b"\0")
        except OSError:
            continue
        token = next((item[len(needle):].decode() for item in environ if item.startswith(needle)), None)
        if token and (proc := Proc.read(int(entry.name))):
            by_token.setdefault(token, []).append(proc)
    for token, members in sorted(by_token.items()):
        yield cgroup.PREFIX + token, [], members


def _find_groups(say: Say, removed: list[str], sweep_empty: bool) -> list[Group]:
    found = _cgroup_groups(say, removed, sweep_empty) if cgroup.has_hierarchy() else _tagged_groups()
    groups = []
    for name, dirs, members in found:
        gone, owner = left_behind(members)
        if gone and os.getpid() not in (owner, *(p.pid for p in members)):
            groups.append(Group(name, dirs, members, owner))
    return groups


def _signal(procs: list[Proc], signum: int) -> None:
    for proc in procs:
        if proc.running():  # never a newer process that got the pid
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(proc.pid, signum)


def _wait_gone(groups: list[Group], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(g.live() for g in groups):
        time.sleep(0.05)


def temp_cluster(cwd: Path | None, temp: Path = Path(tempfile.gettempdir())) -> Path | None:
    """The PostgreSQL cluster in the temp directory that a process running in `cwd` belongs to, if any (the
    postmaster runs in its data directory, inside the cluster's)."""
    return next((p for p in ([cwd, *cwd.parents] if cwd else []) if p.parent == temp and
                 p.name.startswith(PG_TEMP_PREFIX)), None)


def _stop(groups: list[Group], say: Say) -> list[str]:
    """SIGTERM to every process of every group at once, SIGKILL after the grace, then their cgroups and any
    PostgreSQL cluster of theirs in the temp directory are removed."""
    for group in groups:
        with contextlib.suppress(OSError):
            group.cwd = Path(os.readlink(PROC / str(group.oldest.pid) / "cwd"))
        _signal(group.live(), signal.SIGTERM)
    _wait_gone(groups, STOP_GRACE)
    for group in groups:
        _signal(group.live(), signal.SIGKILL)
    _wait_gone(groups, STOP_GRACE)
    removed = []
    for group in groups:
        survivors = group.live()
        if survivors:
            pids = ", ".join(str(p.pid) for p in survivors)
            say(f"could not stop leftover {group.what()}: still running: {pids}")
            continue
        try:
            cgroup.remove(group.dirs)
        except cgroup.CgroupError as exc:
            say(f"stopped leftover {group.what()} but {exc}")
        say(group.line())
        removed.append(group.line())
        cluster = temp_cluster(group.cwd)
        if cluster:
            shutil.rmtree(cluster, ignore_errors=True)
            removed.append(f"removed leftover PostgreSQL cluster {cluster}")
            say(removed[-1])
    return removed



def sweep(say: Say = say, *, verbose: bool = False, registry: Path = REGISTRY) -> list[str]:
    """Stops and removes whatever harnesses that no longer run left behind; returns (and says) one line per
    thing removed. Processes go first: a server may still be writing into its directory."""
    claims = claims_in(registry, say)
    # An empty group may be a live harness's whose server exited: empty ones go only when no other harness
    # runs.
    alone = not any(c.owner.runs() and c.owner.pid != os.getpid() for c in claims)
    removed: list[str] = []
    groups = _find_groups(say, removed, sweep_empty=alone)
    removed += _stop(groups, say)
    removed += sweep_claims(claims, say)
    if verbose and not removed:
        say("nothing left behind by harnesses that no longer run")
    return removed
