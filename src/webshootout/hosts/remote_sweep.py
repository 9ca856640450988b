"""Clears what a harness of this machine that died (SIGKILL, power cut) left on a remote host: its processes,
found by the owner tag in their environment, and its folder under REMOTE_ROOT."""

from __future__ import annotations

import time
from typing import Callable

import psutil

from .remote import REMOTE_OWNER_VAR, REMOTE_ROOT, Remote, owner_prefix

# Seconds of disagreement allowed when telling a live owner from a later process that reuses its pid: the
# host's clock is related to ours at the start of the sweep, which is off by the time the command takes to
# get there. A larger value errs on the side of keeping things.
SLACK = 10.0
# Seconds between SIGTERM to a leftover process group and SIGKILL.
GRACE = 5.0

# Runs on the host with python3 (docs/multi-host.md). An owner "<hostname>-<pid>" of this machine is dead
# unless a process with that pid runs here and started before the leftover was made (a later process with
# the same pid is another program). argv: owner variable, "<hostname>-", REMOTE_ROOT, our clock, slack,
# grace, then "pid:start" of every process here (start in seconds since the epoch, our clock).
_SCRIPT = r"""
import os, shutil, signal, sys, time
var, prefix, root = sys.argv[1], sys.argv[2], sys.argv[3]
offset = time.time() - float(sys.argv[4])
slack, grace = float(sys.argv[5]), float(sys.argv[6])
live = dict((int(p), float(s)) for p, s in (item.split(":") for item in sys.argv[7:]))
tick = os.sysconf("SC_CLK_TCK")
boot = next(float(l.split()[1]) for l in open("/proc/stat") if l.startswith("btime "))

def dead(tag, made):
    rest = tag[len(prefix):]
    if not tag.startswith(prefix) or not rest.isdigit():
        return False  # another machine's harness, or not a tag at all
    started = live.get(int(rest))
    return started is None or started > made - offset + slack

def stat(pid):
    text = open("/proc/%d/stat" % pid).read()
    fields = text[text.rindex(")") + 2:].split()
    return fields[0], int(fields[2]), boot + int(fields[19]) / tick  # state, pgid, start

def running(pid):
    try:
        return stat(pid)[0] != "Z"
    except (OSError, ValueError):
        return False

me, my_group = os.getpid(), os.getpgrp()
groups = {}
for name in os.listdir("/proc"):
    if not name.isdigit() or int(name) == me:
        continue
    pid = int(name)
    try:
        env = open("/proc/%d/environ" % pid, "rb").read().split(b"\0")
        comm = open("/proc/%d/comm" % pid).read().strip()
        state, group, started = stat(pid)
    except (OSError, ValueError):
        continue
    want = (var + "=").encode()
    tag = next((e[len(want):].decode(errors="replace") for e in env if e.startswith(want)), None)
    if tag is None or state == "Z" or group in (0, 1, my_group) or not dead(tag, started):
        continue
    groups.setdefault(group, (tag, []))[1].append((pid, comm))

for group in groups:
    try:
        os.killpg(group, signal.SIGTERM)
    except OSError:
        pass
deadline = time.monotonic() + grace
while time.monotonic() < deadline and any(running(p) for _, m in groups.values() for p, _ in m):
    time.sleep(0.1)
for group, (tag, members) in sorted(groups.items()):
    how = "SIGTERM"
    if any(running(p) for p, _ in members):
        how = "SIGKILL"
        try:
            os.killpg(group, signal.SIGKILL)
        except OSError:
            pass
    names = ", ".join("%d %s" % m for m in sorted(members))
    print("killed process group %d (%s) left by %s, with %s" % (group, names, tag, how))

for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
    path = os.path.join(root, name)
    try:
        made = os.lstat(path).st_mtime
    except OSError:
        continue
    if os.path.isdir(path) and not os.path.islink(path) and dead(name, made):
        shutil.rmtree(path, ignore_errors=True)
        print(("removed %s" if not os.path.exists(path) else "could not remove %s") % path)
"""


def local_starts() -> list[str]:
    """'pid:start' of every process on this machine (start in whole seconds since the epoch)."""
    found = []
    for proc in psutil.process_iter(["create_time"]):
        if proc.info["create_time"] is not None:
            found.append(f"{proc.pid}:{int(proc.info['create_time'])}")
    return found


def sweep(remote: Remote, say: Callable[[str], None], *, root: str = REMOTE_ROOT) -> list[str]:
    """Kills (SIGTERM, SIGKILL after GRACE s) the process groups on `remote` whose REMOTE_OWNER_VAR names a
    dead harness of this machine and removes such harnesses' folders under `root`; says and returns each
    thing done. Live harnesses' and other machines' processes and folders are left alone."""
    argv = ["python3", "-c", _SCRIPT, REMOTE_OWNER_VAR, owner_prefix(), root]
    starts = local_starts()
    done = remote.run([*argv, f"{time.time():.3f}", f"{SLACK:g}", f"{GRACE:g}", *starts], timeout=GRACE + 60)
    lines = done.stdout.splitlines()
    for line in lines:
        say(f"{remote}: {line}")
    return lines
