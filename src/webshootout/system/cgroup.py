"""A control group per started server: which processes are its, and their CPU time and memory, as the kernel
accounts them (no walk over /proc per sample).

Memory counts what the group's processes hold in RAM with every page once, however many processes share it
(150 prefork children sharing one interpreter's pages count it once):

- cgroup v1: memory.stat `total_rss + total_shmem`; cgroup v2: memory.stat `anon + shmem`. That is the
  anonymous memory of the processes (heaps, stacks, JIT code, pages still shared copy-on-write after fork)
  plus the shared memory they created (PostgreSQL's shared buffers, PHP's opcache, Apache's scoreboard).
  Every such page is charged to the group whose process first touched it, and a server's processes are in
  its group from their first instruction, so this is all the memory the server allocated, each page once.
  It leaves out page cache (files read or written, and the code of binaries and libraries): the kernel
  charges a file page to whichever group read the file first (often the build, or another program using
  the same library), so counting it would make a server's memory depend on the history of the page cache.
- Without a writable cgroup hierarchy (not root): the sum of PSS over the processes that carry the start's
  token, read from /proc/PID/smaps_rollup (shared pages split among their sharers), and CPU time from
  /proc/PID/stat of the processes seen at each sample.
"""

from __future__ import annotations

import contextlib
import errno
import os
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator

# Every process the harness starts carries this variable with a per-start token; without cgroups it is how
# the start's processes are found, even those that left the process group.
TOKEN_VAR = "WEBSHOOTOUT_TOKEN"

PREFIX = "webshootout-"  # every group we create is named PREFIX + token

PROC = Path("/proc")
MOUNTS = PROC / "self" / "mounts"
OWN_CGROUPS = PROC / "self" / "cgroup"
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


class CgroupError(RuntimeError):
    pass


def _write(path: Path, text: str) -> None:
    with open(path, "w") as out:  # one write() per value: the kernel takes each write as one command
        out.write(text)


def _stat(path: Path) -> dict[str, int]:
    """A flat-keyed cgroup file (memory.stat, cpu.stat) as numbers."""
    values = {}
    for line in path.read_text().splitlines():
        key, _, value = line.partition(" ")
        values[key] = int(value)
    return values


def _pids(procs: Path) -> set[int]:
    return {int(pid) for pid in procs.read_text().split()}


@dataclass
class Peak:
    """The kernel's high-water mark of the group's memory since `start`, page cache and kernel memory
    included; it sees spikes between samples."""

    path: Path

    def start(self) -> None:
        _write(self.path, "0")  # cgroup v1 resets memory.max_usage_in_bytes on any write

    def read(self) -> int:
        return int(self.path.read_text())


class V1:
    """A group in the cgroup v1 cpuacct and memory hierarchies (a child of our own group in each)."""

    memory_method = "cgroup v1 memory.stat total_rss + total_shmem"
    cpu_method = "cgroup v1 cpuacct.usage"

    def __init__(self, cpuacct: Path, memory: Path):
        self.dirs = (cpuacct, memory)
        self.peak = Peak(memory / "memory.max_usage_in_bytes")

    def add(self, pid: int) -> None:
        for directory in self.dirs:
            _write(directory / "cgroup.procs", str(pid))

    def pids(self) -> set[int]:
        return set().union(*(_pids(d / "cgroup.procs") for d in self.dirs if d.exists()))

    def cpu_seconds(self) -> float:
        return int((self.dirs[0] / "cpuacct.usage").read_text()) / 1e9

    def memory_bytes(self) -> int:
        stat = _stat(self.dirs[1] / "memory.stat")
        return stat["total_rss"] + stat["total_shmem"]

    def remove(self) -> None:
        for directory in self.dirs:
            _rmdir(directory)


class V2:
    """A group in the unified cgroup v2 hierarchy with the memory controller enabled."""

    memory_method = "cgroup v2 memory.stat anon + shmem"
    cpu_method = "cgroup v2 cpu.stat usage_usec"
    peak = None  # memory.peak resets only per open file on recent kernels: not a per-trial figure everywhere

    def __init__(self, directory: Path):
        self.dirs = (directory,)

    def add(self, pid: int) -> None:
        _write(self.dirs[0] / "cgroup.procs", str(pid))

    def pids(self) -> set[int]:
        return _pids(self.dirs[0] / "cgroup.procs") if self.dirs[0].exists() else set()

    def cpu_seconds(self) -> float:
        return _stat(self.dirs[0] / "cpu.stat")["usage_usec"] / 1e6

    def memory_bytes(self) -> int:
        stat = _stat(self.dirs[0] / "memory.stat")
        return stat["anon"] + stat["shmem"]

    def remove(self) -> None:
        _rmdir(self.dirs[0])


@dataclass
class Tagged:
    """No writable cgroup hierarchy: the processes carrying the start's token, found by a walk over /proc.

    CPU time of a process is remembered from the last walk that saw it, so the CPU time of processes that
    exit between walks is counted up to that walk.
    """

    token: str
    memory_method = "PSS from /proc/PID/smaps_rollup, summed"
    cpu_method = "/proc/PID/stat utime + stime, sampled"
    peak = None
    dirs = ()
    _cpu: dict[tuple[int, int], float] = field(default_factory=dict)  # (pid, start time) -> CPU seconds

    def add(self, pid: int) -> None:
        """Nothing to do: the process inherits the token through its environment."""

    def pids(self) -> set[int]:
        needle = f"{TOKEN_VAR}={self.token}".encode()
        found = set()
        for entry in PROC.iterdir():
            if entry.name.isdigit():
                try:
                    if needle in (entry / "environ").read_bytes().split(b"\0"):
                        found.add(int(entry.name))
                except OSError:  # gone, or not ours to read
                    continue
        return found

    def cpu_seconds(self) -> float:
        for pid in self.pids():
            try:
                # Fields after the command name, which may hold spaces and parentheses.
                fields = (PROC / str(pid) / "stat").read_text().rpartition(")")[2].split()
            except OSError:
                continue
            self._cpu[(pid, int(fields[19]))] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
        return sum(self._cpu.values())

    def memory_bytes(self) -> int:
        total_kb = 0
        for pid in self.pids():
            try:
                text = (PROC / str(pid) / "smaps_rollup").read_text()
            except OSError:
                continue
            total_kb += next((int(line.split()[1]) for line in text.splitlines() if line.startswith("Pss:")), 0)
        return total_kb * 1024

    def remove(self) -> None:
        """Nothing to remove: the group is the processes themselves."""


Group = V1 | V2 | Tagged


def _rmdir(directory: Path, timeout: float = 5.0) -> None:
    """Removes an emptied group; the kernel refuses (EBUSY) while a member is still exiting."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            directory.rmdir()
            return
        except FileNotFoundError:
            return
        except OSError as exc:
            if exc.errno != errno.EBUSY or time.monotonic() > deadline:
                raise CgroupError(f"cannot remove cgroup {directory}: {exc.strerror}") from None
            time.sleep(0.05)


@dataclass(frozen=True)
class Hierarchies:
    """Where this machine mounts the controllers we use, and where in each our own process sits."""

    v1: dict[str, Path]  # controller (cpu, cpuacct, memory) -> directory of our own group in its v1 hierarchy
    # Where new groups go in the unified hierarchy, when it is the one holding the memory controller: the
    # parent of our own group (cgroup v2 enables controllers only below a group without processes of its
    # own, and ours holds us), or the hierarchy's root when we sit there.
    v2: Path | None

    @classmethod
    def read(cls) -> Hierarchies:
        mounts_v1: dict[str, Path] = {}
        unified = None
        for line in MOUNTS.read_text().splitlines():
            _, where, kind, options, *_ = line.split()
            if kind == "cgroup":
                for option in options.split(","):
                    if option in ("cpu", "cpuacct", "memory"):
                        mounts_v1[option] = Path(where)
            elif kind == "cgroup2":
                unified = Path(where)
        own_v1: dict[str, Path] = {}
        v2_base = None
        for line in OWN_CGROUPS.read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(","):
                if controller in mounts_v1:
                    own_v1[controller] = mounts_v1[controller] / path.lstrip("/")
            if controllers == "" and unified is not None:
                v2_base = unified / os.path.dirname(path).lstrip("/")
        if v2_base is not None and "memory" not in (unified / "cgroup.controllers").read_text().split():
            v2_base = None  # a hybrid machine: the unified hierarchy only tracks processes
        return cls(own_v1, v2_base)


def create(token: str) -> Group:
    """A new, empty group for one start, in the hierarchy this machine uses; falls back to Tagged when the
    hierarchy is missing or not writable for us."""
    name = f"{PREFIX}{token}"
    where = Hierarchies.read()
    try:
        if "cpuacct" in where.v1 and "memory" in where.v1:
            dirs = [where.v1["cpuacct"] / name, where.v1["memory"] / name]
            made = []
            try:
                for directory in dirs:
                    directory.mkdir()
                    made.append(directory)
            except OSError:
                for directory in made:
                    directory.rmdir()
                raise
            return V1(*dirs)
        if where.v2 is not None:
            return _create_v2(where.v2, name)
    except OSError:
        pass
    return Tagged(token)


def _create_v2(parent: Path, name: str) -> V2:
    """A child of `parent` with memory accounting on."""
    if "memory" not in (parent / "cgroup.subtree_control").read_text().split():
        _write(parent / "cgroup.subtree_control", "+memory")
    directory = parent / name
    directory.mkdir()
    return V2(directory)


PERIOD_US = 100_000  # the kernel's default CFS bandwidth period


@contextlib.contextmanager
def cpu_quota(group: Group, cpus: float) -> Iterator[None]:
    """Holds the group's processes to `cpus` CPUs' worth of run time in every period (CFS bandwidth control:
    cpu.max in cgroup v2; in v1 cpu.cfs_quota_us of a group of the same name in the cpu hierarchy, which the
    processes join and leave again on exit): a known slowdown of a server that keeps its CPUs busy, what
    `ab --calibrate` must find."""
    quota = str(round(cpus * PERIOD_US))
    if isinstance(group, V2):
        parent = group.dirs[0].parent
        if "cpu" not in (parent / "cgroup.subtree_control").read_text().split():
            _write(parent / "cgroup.subtree_control", "+cpu")
        _write(group.dirs[0] / "cpu.max", f"{quota} {PERIOD_US}")
        try:
            yield
        finally:
            _write(group.dirs[0] / "cpu.max", f"max {PERIOD_US}")
        return
    where = Hierarchies.read().v1.get("cpu") if isinstance(group, V1) else None
    if where is None:
        raise CgroupError("a CPU quota needs a writable cgroup hierarchy with the cpu controller; none here")
    directory = where / group.dirs[0].name
    apart = directory != group.dirs[0]  # cpu mounted apart from cpuacct: the processes must join it
    if apart:
        directory.mkdir()
    try:
        _write(directory / "cpu.cfs_period_us", str(PERIOD_US))
        _write(directory / "cpu.cfs_quota_us", quota)
        for pid in group.pids() if apart else ():
            _write(directory / "cgroup.procs", str(pid))
        yield
    finally:
        _write(directory / "cpu.cfs_quota_us", "-1")
        if apart:
            for pid in _pids(directory / "cgroup.procs"):
                with contextlib.suppress(OSError):  # exited meanwhile
                    _write(where / "cgroup.procs", str(pid))
            _rmdir(directory)


def every_group() -> dict[str, list[Path]]:
    """Every group of ours on this machine, by name, with its directory in each hierarchy; also those made
    by harnesses that sat in other groups than we do (each hierarchy is searched from its root)."""
    roots = []
    for line in MOUNTS.read_text().splitlines():
        _, where, kind, options, *_ = line.split()
        # cpu too: a quota (cpu_quota) puts a server's processes in a group of that hierarchy.
        if kind == "cgroup2" or (kind == "cgroup" and {"cpu", "cpuacct", "memory"} & set(options.split(","))):
            roots.append(where)
    found: dict[str, list[Path]] = {}
    for top in dict.fromkeys(roots):  # cpu and cpuacct may share one mount
        for directory, children, _ in os.walk(top):
            ours = [c for c in children if c.startswith(PREFIX)]
            for name in ours:
                found.setdefault(name, []).append(Path(directory) / name)
            # Groups of ours have no children: not entered.
            children[:] = [c for c in children if not c.startswith(PREFIX)]
    return found


def has_hierarchy() -> bool:
    """Whether starts get real groups here (else they are Tagged: found only through their environment)."""
    where = Hierarchies.read()
    if "cpuacct" in where.v1 and "memory" in where.v1:
        return all(os.access(where.v1[c], os.W_OK) for c in ("cpuacct", "memory"))
    return where.v2 is not None and os.access(where.v2, os.W_OK)


def remove(dirs: list[Path]) -> None:
    """Removes the directories of an emptied group (one found by every_group)."""
    for directory in dirs:
        _rmdir(directory)
