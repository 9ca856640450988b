"""Puts what a role needs on its host, at the same absolute paths it has here: the project's sources, built
there by its own setup, and the harness's files (the assets). A host that already sees this machine's files
(the lab; an NFS mount) gets nothing: what was built here is what it runs."""

from __future__ import annotations

import shutil
import tempfile
import uuid
from pathlib import Path

from ..stacks.provision import BUILD_DIRS, LOCK, MARKER
from .remote import Remote, RemoteError


def shares_files(remote: Remote, path: Path) -> bool:
    """Whether `remote` sees this machine's files at `path` (the lab; an NFS mount): a random marker written
    beside it here is read back there. Where no marker can be written, the answer is no: copying is never
    wrong, only slower."""
    folder = path if path.is_dir() else path.parent
    marker = folder / f".webshootout-ship-{uuid.uuid4().hex}"
    secret = uuid.uuid4().bytes
    try:
        marker.write_bytes(secret)
    except OSError:
        return False
    try:
        return remote.read_file(str(marker), timeout=30) == secret
    except RemoteError:
        return False
    finally:
        marker.unlink()


def ship(remote: Remote, paths: list[Path], *, exclude: tuple[str, ...] = ()) -> list[Path]:
    """Makes each local folder or file exist at the same absolute path on `remote`, copied over ssh unless
    the host already shares it; returns the paths copied. `exclude`: names left out at any depth."""
    copied = []
    for path in paths:
        if not path.is_absolute() or not path.exists():
            raise RemoteError(f"{remote}: cannot ship {path}: not an absolute path that exists here")
        if shares_files(remote, path):
            continue
        if path.is_dir():
            remote.copy_folder(path, str(path), exclude=exclude)
        else:
            _copy_file(remote, path)
        copied.append(path)
    return copied


def _copy_file(remote: Remote, path: Path) -> None:
    # copy_folder sends a folder's contents: a folder holding only this file lands it in the right place.
    with tempfile.TemporaryDirectory(prefix="ws-ship-") as holder:
        shutil.copy2(path, Path(holder) / path.name)
        remote.copy_folder(Path(holder), str(path.parent))


# What is not a source: build output (at any depth: no tracked folder has these names), caches, this
# machine's runs and history. The host builds its own from the rest.
NOT_SOURCES = (*BUILD_DIRS, MARKER, LOCK, "__pycache__", ".pytest_cache", "./.git", "./runs")
BUILD_TIMEOUT = 3600.0


def build_there(remote: Remote, root: Path, frameworks: tuple[str, ...] | None, log) -> bool:
    """Unless `remote` shares this machine's files: the project's sources to the same path there, then
    `./shootout setup` run there, which installs, checks and builds as it does here (its own Debian packages,
    toolchains and caches); frameworks None builds the harness's own tools only (shootout-load).
    Returns whether anything was built there; RemoteError says why a build failed."""
    if shares_files(remote, root):
        return False
    log(f"{remote}: copying the project's sources to {root}")
    remote.copy_folder(root, str(root), exclude=NOT_SOURCES)
    what = ["--harness-only"] if frameworks is None else ["--frameworks", ",".join(frameworks)]
    log(f"{remote}: ./shootout setup {' '.join(what)}")
    done = remote.run(["./shootout", "setup", *what], cwd=str(root), timeout=BUILD_TIMEOUT, check=False)
    if done.returncode != 0:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-20:])
        raise RemoteError(f"{remote}: ./shootout setup {' '.join(what)} failed (exit {done.returncode}):\n{tail}")
    return True
