"""The lab: three network namespaces on a private bridge, each running its own sshd, standing in for the
app, database and load machines so that multi-host runs can be proven on one machine.

Only the lab's /24 exists inside the namespaces (no default route), so their traffic cannot leave them; the
root namespace holds the bridge's address, from which the harness reaches them over SSH. Namespaces share
the machine's filesystem, so the same paths exist on every lab "host"."""

from __future__ import annotations

import ipaddress
import json
import os
import shutil
import signal
import socket
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from ..stacks import provision
from ..config.hostsfile import ROLES, Host
from .remote import Remote, RemoteError
from ..config.settings import default_split
from ..system.signals import uninterrupted

STATE_DIR = Path("/run/webshootout-lab")  # on tmpfs: gone after a reboot, like the namespaces
SUBNET = "10.77.0.0/24"
BRIDGE = "ws-lab"
NAMESPACES = {"app": "ws-app", "database": "ws-db", "load": "ws-load"}
INSIDE = "lab0"  # each namespace's end of its veth pair
SSHD = "/usr/sbin/sshd"
PRIVSEP = Path("/run/sshd")  # sshd refuses to start without it


class LabError(RuntimeError):
    pass


@dataclass(frozen=True)
class Layout:
    """Names and addresses of the lab: the bridge holds the subnet's first address, the roles the next."""

    state: Path = STATE_DIR
    subnet: str = SUBNET

    @property
    def state_file(self) -> Path:
        return self.state / "state.json"

    @property
    def hosts_file(self) -> Path:
        return self.state / "hosts.toml"

    @property
    def client_key(self) -> Path:
        return self.state / "client_key"

    @property
    def known_hosts(self) -> Path:
        return self.state / "known_hosts"

    def _address(self, index: int) -> str:
        network = ipaddress.ip_network(self.subnet)
        return str(network[index])

    @property
    def bridge_address(self) -> str:
        return self._address(1)

    def address(self, role: str) -> str:
        return self._address(2 + ROLES.index(role))

    @staticmethod
    def veth(role: str) -> str:
        return NAMESPACES[role] + "-v"  # the root namespace's end, a port of the bridge

    def host(self, role: str, cpus: tuple[int, ...]) -> Host:
        address = self.address(role)
        return Host(role, f"root@{address}", address, cpus, self.client_key, self.known_hosts)


def _run(argv: list[str], *, timeout: float = 30) -> str:
    done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout)
    if done.returncode != 0:
        raise LabError(f"{' '.join(argv)} failed (exit {done.returncode}): {done.stderr.strip()}")
    return done.stdout


def _remove_link(name: str) -> None:
    """Deletes the link if it is there. A veth pair goes with the namespace holding its other end, but the
    kernel takes it down in the background: it may vanish between the look and the delete."""
    if not link_exists(name):
        return
    done = subprocess.run(["ip", "link", "del", name], capture_output=True, text=True, timeout=30)
    if done.returncode != 0 and link_exists(name):
        raise LabError(f"ip link del {name} failed (exit {done.returncode}): {done.stderr.strip()}")


def namespaces() -> set[str]:
    return {line.split()[0] for line in _run(["ip", "netns", "list"]).splitlines() if line.strip()}


def link_exists(name: str) -> bool:
    return subprocess.run(["ip", "link", "show", "dev", name], capture_output=True).returncode == 0


# Words that may come before the destination in `ip route` output.
_ROUTE_TYPES = {"unicast", "local", "broadcast", "multicast", "anycast", "unreachable", "blackhole",
                "prohibit", "throw", "nat"}


def _refuse_overlap(subnet: str) -> None:
    """The lab's subnet must not already be in use here: its traffic would mix with a real network's."""
    ours = ipaddress.ip_network(subnet)
    for line in _run(["ip", "-4", "-o", "route", "show", "table", "all"]).splitlines():
        words = line.split()
        words = words[1:] if words[0] in _ROUTE_TYPES else words
        if words[0] == "default":
            continue
        try:
            network = ipaddress.ip_network(words[0], strict=False)
        except ValueError:
            continue
        if network.prefixlen and network.overlaps(ours) and not network.is_loopback:
            raise LabError(f"the lab's subnet {subnet} overlaps a route already here: {line.strip()}")


def _sshd_config(layout: Layout, role: str) -> str:
    folder = layout.state / role
    return "\n".join([
        f"ListenAddress {layout.address(role)}",
        "Port 22",
        f"HostKey {folder / 'host_key'}",
        f"PidFile {folder / 'sshd.pid'}",
        f"AuthorizedKeysFile {layout.state / 'authorized_keys'}",
        "AllowUsers root",
        "PermitRootLogin prohibit-password",
        "PubkeyAuthentication yes",
        "PasswordAuthentication no",
        "KbdInteractiveAuthentication no",
        "UsePAM no",
        "X11Forwarding no",
        "AllowTcpForwarding no",
        "PrintMotd no",
        # The harness multiplexes servers, probes and commands over one connection per host.
        "MaxSessions 64",
        "",
    ])


def _keygen(path: Path, comment: str) -> str:
    _run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", comment, "-f", str(path)])
    return path.with_name(path.name + ".pub").read_text().strip()


def _start_sshd(layout: Layout, role: str) -> None:
    folder = layout.state / role
    folder.mkdir(mode=0o700)
    public = _keygen(folder / "host_key", f"webshootout-lab-{role}")
    with layout.known_hosts.open("a") as out:
        out.write(f"{layout.address(role)} {' '.join(public.split()[:2])}\n")
    (folder / "sshd_config").write_text(_sshd_config(layout, role))
    _run(["ip", "netns", "exec", NAMESPACES[role], SSHD, "-f", str(folder / "sshd_config"),
          "-E", str(folder / "sshd.log")])


def _wait_for_port(address: str, port: int, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection((address, port), timeout=1):
                return
        except OSError as exc:
            if time.monotonic() > deadline:
                raise LabError(f"nothing answers on {address}:{port} after {timeout:g}s: {exc}") from None
            time.sleep(0.1)


def _network(layout: Layout) -> None:
    _run(["ip", "link", "add", BRIDGE, "type", "bridge"])
    _run(["ip", "addr", "add", f"{layout.bridge_address}/{ipaddress.ip_network(layout.subnet).prefixlen}",
          "dev", BRIDGE])
    _run(["ip", "link", "set", BRIDGE, "up"])
    for role in ROLES:
        ns = NAMESPACES[role]
        _run(["ip", "netns", "add", ns])
        _run(["ip", "link", "add", layout.veth(role), "type", "veth", "peer", "name", INSIDE, "netns", ns])
        _run(["ip", "link", "set", layout.veth(role), "master", BRIDGE, "up"])
        prefix = ipaddress.ip_network(layout.subnet).prefixlen
        _run(["ip", "-n", ns, "addr", "add", f"{layout.address(role)}/{prefix}", "dev", INSIDE])
        _run(["ip", "-n", ns, "link", "set", INSIDE, "up"])
        _run(["ip", "-n", ns, "link", "set", "lo", "up"])
    # The load host as docs/multi-host.md asks for it: reusing its ports in TIME_WAIT, which Linux does only
    # on loopback by default (a per-namespace setting: nothing outside the lab changes).
    _run(["ip", "netns", "exec", NAMESPACES["load"], "sysctl", "-q", "-w", "net.ipv4.tcp_tw_reuse=1"])


def _prove(layout: Layout) -> None:
    """Logs in to every namespace, and from each reaches the others' sshd across the bridge."""
    for role in ROLES:
        with Remote(layout.host(role, (0,))) as remote:
            try:
                for other in ROLES:
                    remote.run(["bash", "-c", f"exec 3<>/dev/tcp/{layout.address(other)}/22"], timeout=5)
            except RemoteError as exc:
                log = (layout.state / role / "sshd.log").read_text(errors="replace")[-1500:]
                raise LabError(f"the lab's {role} namespace does not work: {exc}\nsshd log:\n{log}") from None


def _hosts_toml(layout: Layout) -> str:
    server_cpus, load_cpus = default_split()
    cpus = {"app": server_cpus, "database": server_cpus, "load": load_cpus}
    lines = ["# Written by `shootout lab up`: the lab's three namespaces as the hosts of a run.\n"]
    for role in ROLES:
        host = layout.host(role, cpus[role])
        lines += [f"[hosts.{role}]", f"ssh = {json.dumps(host.ssh)}", f"address = {json.dumps(host.address)}",
                  f"cpus = {json.dumps(','.join(map(str, host.cpus)))}",
                  f"identity = {json.dumps(str(host.identity))}",
                  f"known_hosts = {json.dumps(str(host.known_hosts))}", ""]
    return "\n".join(lines)


def up(log, layout: Layout = Layout()) -> Path:
    """Creates the lab and returns its hosts file; refuses if any part of a lab is already there."""
    if layout.state.exists():
        raise LabError(f"a lab is already up (state in {layout.state}); run `shootout lab down` first")
    present = _present(layout)
    if present:
        raise LabError(f"{', '.join(present)} already exist(s) without lab state in {layout.state}: "
                       f"remove them (ip netns del / ip link del) first")
    _refuse_overlap(layout.subnet)
    provision.apt_install(["openssh-server", "iproute2"], log)
    layout.state.mkdir(mode=0o700, parents=True)
    # Written before anything is made, so that `down` undoes a half-finished `up` too.
    layout.state_file.write_text(json.dumps({"made_privsep": not PRIVSEP.exists()}))
    try:
        PRIVSEP.mkdir(mode=0o755, exist_ok=True)
        log(f"lab: bridge {BRIDGE} {layout.bridge_address}, namespaces {', '.join(NAMESPACES.values())}")
        _network(layout)
        client_public = _keygen(layout.client_key, "webshootout-lab-client")
        (layout.state / "authorized_keys").write_text(client_public + "\n")
        for role in ROLES:
            _start_sshd(layout, role)
        for role in ROLES:
            _wait_for_port(layout.address(role), 22, 10)
        _prove(layout)
        layout.hosts_file.write_text(_hosts_toml(layout))
    except BaseException:
        with uninterrupted():
            down(log, layout)
        raise
    return layout.hosts_file


def _present(layout: Layout) -> list[str]:
    """The lab's namespaces and links that exist now."""
    return sorted(set(NAMESPACES.values()) & namespaces()) + [
        name for name in (BRIDGE, *map(layout.veth, ROLES)) if link_exists(name)]


def _pids(ns: str) -> list[int]:
    return [int(pid) for pid in _run(["ip", "netns", "pids", ns]).split()]


def _stop_namespace_processes(ns: str) -> int:
    """Ends every process in the namespace (its sshd and all started through it); returns how many."""
    stopped: set[int] = set()
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = _pids(ns)
        stopped.update(pids)
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        deadline = time.monotonic() + 5
        while _pids(ns) and time.monotonic() < deadline:
            time.sleep(0.05)
    if _pids(ns):
        raise LabError(f"processes in namespace {ns} survived SIGKILL: {_pids(ns)}")
    return len(stopped)


def down(log, layout: Layout = Layout()) -> bool:
    """Removes every namespace, link, process and file the lab made; False when there was no lab."""
    if not layout.state.exists():
        return False
    try:
        made_privsep = json.loads(layout.state_file.read_text())["made_privsep"]
    except (OSError, ValueError, KeyError):
        made_privsep = False  # up was cut short before it could tell: leave /run/sshd alone
    existing = namespaces()
    for role in ROLES:
        ns = NAMESPACES[role]
        if ns in existing:
            stopped = _stop_namespace_processes(ns)
            _run(["ip", "netns", "del", ns])
            log(f"lab: removed namespace {ns}" + (f" (stopped {stopped} processes)" if stopped else ""))
        _remove_link(layout.veth(role))
    if link_exists(BRIDGE):
        _run(["ip", "link", "del", BRIDGE])
        log(f"lab: removed bridge {BRIDGE}")
    if made_privsep and PRIVSEP.is_dir() and not any(PRIVSEP.iterdir()):
        PRIVSEP.rmdir()
    left = _present(layout)
    if left:
        raise LabError(f"could not remove {', '.join(left)}; the lab state stays in {layout.state}")
    shutil.rmtree(layout.state)
    return True


def status(layout: Layout = Layout()) -> dict:
    """What of a lab exists now: state, bridge, and per role its namespace, veth and sshd."""
    existing = namespaces()
    roles = {}
    for role in ROLES:
        pid_file = layout.state / role / "sshd.pid"
        text = pid_file.read_text().strip() if pid_file.is_file() else ""
        pid = int(text) if text.isdigit() else None
        roles[role] = {"namespace": NAMESPACES[role] if NAMESPACES[role] in existing else None,
                       "veth": link_exists(layout.veth(role)), "address": layout.address(role),
                       "sshd_pid": pid if pid and Path(f"/proc/{pid}").exists() else None}
    return {"state": layout.state_file.is_file(), "bridge": link_exists(BRIDGE),
            "hosts_file": str(layout.hosts_file) if layout.hosts_file.is_file() else None, "roles": roles}
