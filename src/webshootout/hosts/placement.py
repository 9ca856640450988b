"""Where a run's roles are when a hosts file places them: one SSH connection per role, what a killed harness
left on those hosts swept away first, the Debian packages a role needs installed there, and the topology
(hosts, their kernels and CPUs, the links measured between them) that meta.json and the reports record."""

from __future__ import annotations

import contextlib
import shlex
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

from .. import ROOT
from . import netprobe, remote_sweep, ship
from ..config.hostsfile import Host, Hosts
from ..stacks.provision import SetupError
from .remote import Remote, RemoteError, work_dir
from ..system.signals import uninterrupted

Say = Callable[[str], None]

# Run on a host: its facts, one per line (hostname, kernel, online CPUs, CPU model, OS, the python3 that
# shipped virtual environments need).
_FACTS = ("hostname; uname -r; nproc --all; sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1; "
          ". /etc/os-release && echo \"$PRETTY_NAME\"; python3 --version; cat /proc/sys/net/ipv4/tcp_tw_reuse; "
          "tr '\\t' - < /proc/sys/net/ipv4/ip_local_port_range")
# A client reuses a local port in TIME_WAIT for a new connection to another host only with tcp_tw_reuse = 1
# (the default 2 allows it on loopback only). Without it, against a server that closes every connection,
# the load host runs out of ports at about (its port range) / 60 s new connections per second.
TIME_WAIT_S = 60

# Installs the missing Debian packages named in "$@" there, the way provision.apt_install does here:
# services that packages would start are forbidden for the duration (policy-rc.d), the dpkg lock is waited for.
_APT = r"""
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
made=""
if [ ! -e /usr/sbin/policy-rc.d ]; then printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d
  chmod 755 /usr/sbin/policy-rc.d; made=1; fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq -o DPkg::Lock::Timeout=600 >/dev/null &&
  apt-get install -y -qq --no-install-recommends -o DPkg::Lock::Timeout=600 $missing
status=$?
[ -n "$made" ] && rm -f /usr/sbin/policy-rc.d
exit $status
"""


@dataclass(frozen=True)
class Placement:
    hosts: Hosts
    remotes: dict[str, Remote]  # role -> its open connection

    def host(self, role: str) -> Host:
        return self.hosts[role]

    def remote(self, role: str) -> Remote:
        return self.remotes[role]


@contextlib.contextmanager
def placed(hosts: Hosts | None, say: Say, frameworks: tuple[str, ...] = ()) -> Iterator[Placement | None]:
    """Connects to every role's host, sweeps there what a killed harness of this machine left, and has the
    load host build shootout-load and the app host `frameworks` (ship.build_there: nothing to do on a host
    that shares this machine's files); None without a hosts file. Every connection is closed on exit, and
    with it whatever was left started."""
    if hosts is None:
        yield None
        return
    stack = contextlib.ExitStack()
    remotes: dict[str, Remote] = {}
    try:
        remotes.update({host.role: stack.enter_context(Remote(host)) for host in hosts.hosts})
        for remote in _distinct(remotes):
            try:
                remote_sweep.sweep(remote, say)  # says what it removed
            except RemoteError as exc:
                raise SetupError(f"hosts file {hosts.source}: {exc}") from None
        try:
            ship.build_there(remotes["load"], ROOT, None, say)
            if frameworks:
                ship.build_there(remotes["app"], ROOT, frameworks, say)
        except RemoteError as exc:
            raise SetupError(str(exc)) from None
        yield Placement(hosts, remotes)
    finally:
        with uninterrupted():
            for remote in _distinct(remotes):
                _remove_work_dir(remote, say)
            stack.close()


def _distinct(remotes: dict[str, Remote]) -> list[Remote]:
    """One connection per host: roles sharing a host need one sweep and one clean-up of it."""
    seen: dict[str, Remote] = {}
    for remote in remotes.values():
        seen.setdefault(remote.host.ssh, remote)
    return list(seen.values())


def _remove_work_dir(remote: Remote, say: Say) -> None:
    """What this harness made on the host (run dirs, the PostgreSQL cluster) goes when the run ends; what
    a failure here leaves, the next start's sweep removes."""
    try:
        remote.run(["rm", "-rf", "--", work_dir()], timeout=120)
    except RemoteError as exc:
        say(f"{remote}: could not remove {work_dir()}: {exc}")


def apt_install(remote: Remote, packages: list[str], log: Say) -> None:
    """Installs on the host the Debian packages it lacks (a role's `[setup] apt`)."""
    if not packages:
        return
    done = remote.run(["sh", "-c", _APT, "apt", *packages], timeout=1800, check=False)
    if done.returncode != 0:
        raise SetupError(f"{remote}: apt-get install {shlex.join(packages)} failed:\n{done.stderr[-2000:]}")
    if done.stdout.strip():
        log(f"{remote}: installed {' '.join(packages)}")


def _facts(placement: Placement, role: str) -> dict:
    host = placement.host(role)
    lines = placement.remote(role).run(["sh", "-c", _FACTS], timeout=30).stdout.splitlines() + [""] * 8
    return {"ssh": host.ssh, "address": host.address, "cpus": list(host.cpus), "hostname": lines[0],
            "kernel": lines[1], "cpus_online": int(lines[2]) if lines[2].isdigit() else None,
            "cpu_model": lines[3], "os": lines[4], "python": lines[5], "tcp_tw_reuse": lines[6],
            "local_port_range": lines[7]}


def port_warning(load: dict) -> str | None:
    """Why connection-per-request rates will be capped by the load host's ports, or None."""
    if load.get("tcp_tw_reuse") == "1":
        return None
    low, _, high = load.get("local_port_range", "").partition("-")
    ports = int(high) - int(low) + 1 if low.isdigit() and high.isdigit() else 28232
    return (f"the load host has net.ipv4.tcp_tw_reuse = {load.get('tcp_tw_reuse') or '?'}: against a server that "
            f"closes its connections it can open only about {ports // TIME_WAIT_S} new connections per second "
            f"({ports} ports, each held {TIME_WAIT_S} s in TIME_WAIT); set it to 1 there (docs/multi-host.md)")


def topology(placement: Placement, logs: Path, need_database: bool, say: Say) -> dict:
    """Which host runs which role, with its facts, and the links measured now with our own probe: load to
    app (the benchmark's requests), app to database (its queries)."""
    roles = {host.role: _facts(placement, host.role) for host in placement.hosts.hosts}
    warning = port_warning(roles["load"])
    if warning:
        say(f"warning: {warning}")
    links = [("app", "load")] + ([("database", "app")] if need_database else [])
    measured = []
    for server, client in links:
        say(f"measuring the link {client} -> {server}")
        try:
            link = netprobe.measure(placement.remote(server), placement.remote(client),
                                    logs / f"netprobe-{client}-{server}.log")
        except netprobe.NetprobeError as exc:
            raise SetupError(str(exc)) from None
        measured.append(link.as_meta())
        say(f"  round trip median {link.rtt_median_us:.0f} us, {link.throughput_mbit_s:,.0f} Mbit/s")
    return {"hosts_file": str(placement.hosts.source), "roles": roles, "links": measured, "warning": warning}
