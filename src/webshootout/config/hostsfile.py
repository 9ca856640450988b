"""The hosts file: which machine (reached over SSH) plays each role of a run: app, database, load."""

from __future__ import annotations

import ipaddress
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROLES = ("app", "database", "load")
_KEYS = {"ssh", "address", "cpus", "identity", "known_hosts", "port"}
_REQUIRED = ("ssh", "address", "cpus")
# user@host or host; a leading '-' would be read by ssh as an option.
_DESTINATION = re.compile(r"^(?:[A-Za-z0-9._][A-Za-z0-9._-]*@)?[A-Za-z0-9_.:\[\]%-]+$")
_HOSTNAME = re.compile(r"^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?"
                       r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$")


class HostsError(ValueError):
    """A hosts file (or [hosts] table) not matching the format; the message names the file and field."""


@dataclass(frozen=True)
class Host:
    role: str
    ssh: str  # the ssh destination, user@host
    address: str  # where the other roles reach this one for the benchmark; never a wildcard
    cpus: tuple[int, ...]  # CPU numbers on that host to pin this role's processes to
    identity: Path | None = None  # private key; None: ssh's defaults
    known_hosts: Path | None = None  # the only known_hosts file trusted for it; None: ssh's defaults
    port: int = 22


@dataclass(frozen=True)
class Hosts:
    source: Path
    hosts: tuple[Host, ...]  # one per role, in ROLES order

    def __str__(self) -> str:
        return f"the hosts of {self.source}"

    def __getitem__(self, role: str) -> Host:
        for host in self.hosts:
            if host.role == role:
                return host
        raise KeyError(role)


def parse_cpu_list(text: str) -> tuple[int, ...]:
    """'0', '0,2' or '0-3,6' -> sorted CPU numbers; ValueError (naming the bad part) if malformed.

    Only the syntax: whether the CPUs exist is for the host that has them to say."""
    cpus: set[int] = set()
    for part in text.split(","):
        lo, dash, hi = part.strip().partition("-")
        if not lo.isdigit() or (dash and not hi.isdigit()):
            raise ValueError(f"{part.strip()!r} is not a CPU number or range")
        first, last = int(lo), int(hi) if dash else int(lo)
        if last < first:
            raise ValueError(f"range {part.strip()!r} runs backwards")
        cpus.update(range(first, last + 1))
    return tuple(sorted(cpus))


def load(path: Path) -> Hosts:
    """Reads a hosts file: one [hosts.ROLE] table per role and nothing else."""
    try:
        data = tomllib.loads(path.read_text())
    except OSError as exc:
        raise HostsError(f"{path}: cannot read: {exc.strerror}") from None
    except tomllib.TOMLDecodeError as exc:
        raise HostsError(f"{path}: not valid TOML: {exc}") from None
    extra = sorted(set(data) - {"hosts"})
    if extra:
        raise HostsError(f"{path}: {extra[0]}: unknown key (a hosts file holds only [hosts.ROLE] tables)")
    return from_table(path, data.get("hosts"))


def from_table(source: Path, table) -> Hosts:
    """The [hosts] table of `source` (a hosts file or a suite); relative paths are relative to its folder."""
    if not isinstance(table, dict) or not table:
        raise HostsError(f"{source}: hosts: expected a table with one [hosts.ROLE] per role {ROLES}")
    unknown = sorted(set(table) - set(ROLES))
    if unknown:
        raise HostsError(f"{source}: hosts.{unknown[0]}: unknown role (expected {', '.join(ROLES)})")
    missing = [role for role in ROLES if role not in table]
    if missing:
        raise HostsError(f"{source}: hosts.{missing[0]}: missing "
                         f"(every role needs a host: {', '.join(ROLES)})")
    return Hosts(source, tuple(_host(source, role, table[role]) for role in ROLES))


def _host(source: Path, role: str, data) -> Host:
    where = f"{source}: hosts.{role}"
    if not isinstance(data, dict):
        raise HostsError(f"{where}: expected a table, got {data!r}")
    unknown = sorted(set(data) - _KEYS)
    if unknown:
        raise HostsError(f"{where}.{unknown[0]}: unknown key (expected one of {sorted(_KEYS)})")
    for key in _REQUIRED:
        if key not in data:
            raise HostsError(f"{where}.{key}: missing")
    for key in _KEYS - {"port"}:
        if key in data and (not isinstance(data[key], str) or not data[key].strip()):
            raise HostsError(f"{where}.{key}: expected a non-empty string, got {data[key]!r}")
    ssh = data["ssh"].strip()
    if not _DESTINATION.match(ssh) or ssh.startswith("-"):
        raise HostsError(f"{where}.ssh: expected an ssh destination like 'root@10.0.0.2', got {ssh!r}")
    try:
        cpus = parse_cpu_list(data["cpus"])
    except ValueError as exc:
        raise HostsError(f"{where}.cpus: expected a CPU list like '0', '0,2' or '0-3': {exc}") from None
    port = data.get("port", 22)
    if isinstance(port, bool) or not isinstance(port, int) or not 1 <= port <= 65535:
        raise HostsError(f"{where}.port: expected a TCP port 1..65535, got {port!r}")
    return Host(role, ssh, _address(where, data["address"].strip()), cpus,
                _file(source, where, data, "identity"), _file(source, where, data, "known_hosts"), port)


def _address(where: str, text: str) -> str:
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        if not _HOSTNAME.match(text):
            raise HostsError(f"{where}.address: expected an IP address or host name, got {text!r}") from None
        return text
    if ip.is_unspecified:
        raise HostsError(f"{where}.address: {text} is a wildcard; give the address the other roles reach "
                         f"this host on")
    if ip.is_multicast:
        raise HostsError(f"{where}.address: {text} is a multicast address")
    return str(ip)


def _file(source: Path, where: str, data: dict, key: str) -> Path | None:
    if key not in data:
        return None
    path = (source.parent / Path(data[key]).expanduser()).resolve()
    if not path.is_file():
        raise HostsError(f"{where}.{key}: no such file: {path}")
    return path
