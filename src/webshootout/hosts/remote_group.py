"""A process group on a remote host, sampled for the Sampler as cgroup.Group is locally: its CPU time and
memory read from that host's /proc over one ssh round trip per call.

Members are the processes whose process group id (field 5 of /proc/PID/stat) is the group's id, and their
descendants: PostgreSQL's backends, for one, each call setsid() and so leave the postmaster's group. Only a
process that also leaves the family (a daemon's double fork) is not counted. CPU time is utime + stime + cutime + cstime: the time of
children the members have waited for is in their parent's cutime/cstime, so a worker that exits and is
reaped by its master stays counted. A member whose parent is outside the group (the group's leader) takes
its time with it when it exits: the last value seen is kept for it, so the total never goes backwards.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from .remote import Remote, RemoteError

TIMEOUT = 10.0

# Prints the clock tick rate, then one line per member: pid, ppid, start time (ticks since boot), CPU ticks
# (fields 14-17) and, with argv[2] == "pss", PSS in kB ("-" where unreadable, e.g. a zombie).
# argv[1] is the process group id.
_PROBE = r"""
import os, sys
group, want_pss = sys.argv[1], sys.argv[2] == "pss"
stats = {}
for pid in os.listdir("/proc"):
    if pid.isdigit():
        try:
            with open(f"/proc/{pid}/stat") as f:
                stats[pid] = f.read().rpartition(")")[2].split()  # the fields after the command name
        except OSError:
            continue
members = {pid for pid, rest in stats.items() if rest[2] == group}
while True:
    more = {pid for pid, rest in stats.items() if rest[1] in members} - members
    if not more:
        break
    members |= more
print(os.sysconf("SC_CLK_TCK"))
for pid in sorted(members, key=int):
    rest = stats[pid]
    pss = "-"
    if want_pss:
        try:
            with open(f"/proc/{pid}/smaps_rollup") as f:
                pss = next((line.split()[1] for line in f if line.startswith("Pss:")), "-")
        except OSError:
            pass
    ticks = sum(int(value) for value in rest[11:15])
    print(pid, rest[1], rest[19], ticks, pss)
"""


class RemoteGroupError(RuntimeError):
    pass


@dataclass(frozen=True)
class Member:
    pid: int
    ppid: int
    start: int  # ticks since boot: with the pid, tells a process from a later one reusing its pid
    cpu_seconds: float
    pss_kb: int | None  # None when not asked for or not readable


def parse_probe(text: str, where: str) -> list[Member]:
    """The probe's output as members; a malformed line raises RemoteGroupError naming `where`."""
    lines = text.splitlines()
    if not lines or not lines[0].strip().isdigit() or int(lines[0]) <= 0:
        raise RemoteGroupError(f"{where}: the /proc probe gave no clock tick rate: {text[:200]!r}")
    ticks_per_second = int(lines[0])
    members = []
    for line in lines[1:]:
        words = line.split()
        if len(words) != 5 or not all(w.isdigit() for w in words[:4]) or not re.fullmatch(r"\d+|-", words[4]):
            raise RemoteGroupError(f"{where}: unexpected line from the /proc probe: {line!r}")
        pid, ppid, start, ticks = map(int, words[:4])
        pss = int(words[4]) if words[4] != "-" else None
        members.append(Member(pid, ppid, start, ticks / ticks_per_second, pss))
    return members


@dataclass
class RemoteGroup:
    """The processes of group `pgid` on `remote`'s host; the same interface the Sampler uses of a Group."""

    remote: Remote
    pgid: int
    memory_method = ("PSS from /proc/PID/smaps_rollup summed over the process group and its descendants "
                     "(remote /proc, read at the trial's start and end)")
    cpu_method = ("/proc/PID/stat utime + stime + cutime + cstime summed over the process group and its "
                  "descendants (remote /proc), end minus start")
    peak = None
    # (pid, start) -> (CPU seconds last seen, whether its parent was outside the group)
    _seen: dict[tuple[int, int], tuple[float, bool]] = field(default_factory=dict)
    _departed: float = 0.0  # CPU seconds of members gone with nobody in the group to account them

    def _probe(self, pss: bool) -> list[Member]:
        where = f"{self.remote} process group {self.pgid}"
        try:
            done = self.remote.run(["python3", "-c", _PROBE, str(self.pgid), "pss" if pss else "cpu"],
                                   timeout=TIMEOUT)
        except RemoteError as exc:
            raise RemoteGroupError(f"{where}: cannot read /proc there: {exc}") from None
        return parse_probe(done.stdout, where)

    def pids(self) -> set[int]:
        return {m.pid for m in self._probe(pss=False)}

    def cpu_seconds(self) -> float:
        members = self._probe(pss=False)
        return self.account(members)

    def account(self, members: list[Member]) -> float:
        """The group's CPU seconds given its members now, remembering those that left (see the module)."""
        pids = {m.pid for m in members}
        now = {(m.pid, m.start): (m.cpu_seconds, m.ppid not in pids) for m in members}
        for key, (seconds, orphan) in self._seen.items():
            if key not in now and orphan:
                self._departed += seconds
        self._seen = now
        return self._departed + sum(seconds for seconds, _ in now.values())

    def memory_bytes(self) -> int:
        return 1024 * sum(m.pss_kb or 0 for m in self._probe(pss=True))
