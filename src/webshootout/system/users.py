"""The unprivileged system user servers run as: finding or creating it, and which folders it can reach."""

from __future__ import annotations

import os
import pwd
import stat
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable

SERVER_USER = "webshootout"


class UserError(RuntimeError):
    pass


def ensure(name: str) -> pwd.struct_passwd:
    """The system user `name`; created (no home, no login shell) when missing and this process is root."""
    try:
        return pwd.getpwnam(name)
    except KeyError:
        if os.geteuid() != 0:
            raise UserError(f"the system user {name!r} does not exist and only root may create it") from None
    made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", name],
                          capture_output=True, text=True)
    try:
        return pwd.getpwnam(name)  # also when a concurrent harness created it first and useradd failed
    except KeyError:
        raise UserError(f"useradd --system {name} failed (exit {made.returncode}): {made.stderr.strip()}") from None


def blocker(path: Path) -> Path | None:
    """The outermost of `path` and its parents that others may not traverse (no o+x), or None when every
    one that exists lets them through."""
    path = path.resolve()
    for part in reversed([path, *path.parents]):
        if part.exists() and not part.stat().st_mode & stat.S_IXOTH:
            return part
    return None


def reachable_by_others(path: Path) -> bool:
    return blocker(path) is None


def unreachable(blocked: Path) -> str:
    """Why `blocked` (a blocker's answer) stops the users servers run as, in words."""
    return f"{blocked} is mode {stat.S_IMODE(blocked.stat().st_mode):04o}, not reachable by {SERVER_USER}"


@dataclass(frozen=True)
class RunAs:
    """Who a server runs as; `reason` says why it is root when the harness could have dropped root."""

    name: str
    uid: int
    gid: int
    reason: str | None = None

    @property
    def switches(self) -> bool:
        """Whether the server must be started as another user than this process's."""
        return self.uid != os.geteuid()

    def __str__(self) -> str:
        return self.name if self.reason is None else f"{self.name} ({self.reason})"


_told: set[Path] = set()  # folders already reported unreachable: said once per harness, not per server


def for_server(folders: Iterable[Path], root_reason: str | None, say: Callable[[str], None]) -> RunAs:
    """SERVER_USER when this process is root and the user can reach every one of `folders`; otherwise root,
    with the reason (the manifest's [start] root, or the folder it cannot enter, said once)."""
    if os.geteuid() != 0:
        me = pwd.getpwuid(os.geteuid())
        return RunAs(me.pw_name, me.pw_uid, me.pw_gid)
    if root_reason is not None:
        return RunAs("root", 0, 0, f"manifest [start] root: {root_reason}")
    user = ensure(SERVER_USER)
    for folder in folders:
        blocked = blocker(folder)
        if blocked is not None:
            why = unreachable(blocked)
            if blocked not in _told:
                _told.add(blocked)
                say(f"servers run as root: {why} (needed for {folder}); make it o+x to run them unprivileged")
            return RunAs("root", 0, 0, why)
    return RunAs(user.pw_name, user.pw_uid, user.pw_gid)
