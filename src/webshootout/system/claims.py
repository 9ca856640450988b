"""Claimed directories: a throwaway directory (a run's work/, a check's temporary directory, a PostgreSQL
cluster) is marked with the harness that made it, in an .owner file inside it and an entry in REGISTRY, so
a later command finds it with one listing wherever --out put it, and removes it once that harness no longer
runs.

A harness is told apart from a later process that got its pid by its start time and the boot it ran in.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import shutil
import stat
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Callable, Iterator

from ..console import say

PROC = Path("/proc")
BOOT_ID = PROC / "sys" / "kernel" / "random" / "boot_id"
OWNER_FILE = ".owner"
# Outside /tmp, which may be emptied at boot while run directories (and their work/) survive.
REGISTRY = Path("/var/tmp") / ("webshootout-claims" if os.geteuid() == 0
                               else f"webshootout-claims-{os.geteuid()}")

Say = Callable[[str], None]
StartOf = Callable[[int], "int | None"]


class ClaimError(RuntimeError):
    pass


def stat_fields(pid: int) -> list[str] | None:
    """/proc/PID/stat after the command name (which may hold spaces and parentheses): state is [0], ppid [1],
    start time [19]."""
    try:
        return (PROC / str(pid) / "stat").read_text().rpartition(")")[2].split()
    except OSError:
        return None


def start_of(pid: int) -> int | None:
    """When process `pid` started (clock ticks after boot); None when there is none, or only its zombie."""
    fields = stat_fields(pid)
    return None if fields is None or fields[0] in ("Z", "X") else int(fields[19])


def boot() -> str:
    return BOOT_ID.read_text().strip()


@dataclass(frozen=True)
class Owner:
    """A harness process, told apart from any later process with its pid by its start time and boot."""

    pid: int
    start: int
    boot: str

    @classmethod
    def me(cls) -> Owner:
        return cls(os.getpid(), start_of(os.getpid()), boot())

    def runs(self, start_of: StartOf = start_of, boot: Callable[[], str] = boot) -> bool:
        return self.boot == boot() and start_of(self.pid) == self.start


def _private(registry: Path) -> Path:
    """The registry, created when missing; refused unless it is our own directory that only we can write
    (anyone able to add claims could have us remove any directory)."""
    registry.mkdir(mode=0o700, exist_ok=True)
    info = registry.lstat()
    if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid() or info.st_mode & 0o077:
        raise ClaimError(f"{registry}: not a private directory of user {os.geteuid()} (mode "
                         f"{stat.filemode(info.st_mode)}, owner {info.st_uid}); refusing to keep claims there")
    return registry


def _entry(registry: Path, directory: Path) -> Path:
    return registry / (hashlib.sha256(str(directory).encode()).hexdigest()[:24] + ".json")


def _write_json(path: Path, value: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(value))
    tmp.replace(path)


def claim(directory: Path, registry: Path = REGISTRY) -> None:
    """Marks `directory` (existing) as this harness's throwaway, removed by a later sweep once we no longer
    run."""
    directory = directory.resolve()
    owner = asdict(Owner.me())
    _write_json(directory / OWNER_FILE, owner)
    try:
        _write_json(_entry(_private(registry), directory), {"path": str(directory), **owner})
    except (ClaimError, OSError) as exc:  # the run itself does not depend on it
        say(f"warning: {directory} is not claimed ({exc}): if this harness is killed, remove it by hand")


def release(directory: Path, registry: Path = REGISTRY) -> None:
    """Takes back a claim: the directory is ours to remove or keep."""
    directory = directory.resolve()
    (directory / OWNER_FILE).unlink(missing_ok=True)
    _entry(registry, directory).unlink(missing_ok=True)


@contextlib.contextmanager
def claimed(directory: Path, registry: Path = REGISTRY) -> Iterator[None]:
    claim(directory, registry)
    try:
        yield
    finally:
        release(directory, registry)


def _read_owner(path: Path) -> Owner | None:
    try:
        return Owner(**json.loads(path.read_text()))
    except (OSError, ValueError, TypeError):
        return None


@dataclass(frozen=True)
class Claim:
    """One entry of the registry: `owner` made `path`."""

    entry: Path  # in the registry
    text: str  # the entry as read, to tell whether it was claimed again since
    path: Path
    owner: Owner


def claims_in(registry: Path, say: Say) -> list[Claim]:
    """The registry's claims, damaged ones dropped; none when the registry is missing or not private."""
    if not registry.is_dir():
        return []
    try:
        _private(registry)
    except ClaimError as exc:
        say(f"leftover directories not swept: {exc}")
        return []
    claims = []
    for entry in sorted(registry.glob("*.json")):
        try:
            text = entry.read_text()
            record = json.loads(text)
            path = Path(record.pop("path"))
            claims.append(Claim(entry, text, path, Owner(**record)))
        except FileNotFoundError:
            continue  # released meanwhile
        except (OSError, ValueError, TypeError, KeyError, AttributeError) as exc:
            say(f"dropped damaged claim {entry}: {exc}")
            entry.unlink(missing_ok=True)
    return claims


def sweep_claims(claims: list[Claim], say: Say) -> list[str]:
    """Removes the directories whose harness no longer runs (never one holding results) and their claims;
    returns (and says) one line per directory removed."""
    removed = []
    for held in claims:
        path, owner = held.path, held.owner
        if owner.runs():
            continue
        if _read_owner(path / OWNER_FILE) == owner:  # still the directory it claimed, as it left it
            if (path / "meta.json").exists() or (path / "results.jsonl").exists():
                say(f"kept leftover directory {path}: it holds results")
            else:
                shutil.rmtree(path, ignore_errors=True)
                removed.append(f"removed leftover work directory {path} "
                               f"(from harness {owner.pid} that no longer runs)")
                say(removed[-1])
        with contextlib.suppress(FileNotFoundError):
            if held.entry.read_text() == held.text:  # not claimed again by a live harness meanwhile
                held.entry.unlink()
    return removed

