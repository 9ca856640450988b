"""Puts what a role needs on its host at the same absolute paths it has here, so that interpreters, virtual
environments and binaries built on this machine run there unchanged (hosts with the same OS)."""

from __future__ import annotations

import os
import shlex
import shutil
import tempfile
import uuid
from pathlib import Path

from .catalog import ManifestError, Variant
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


def paths_for(variant: Variant, root: Path) -> list[Path]:
    """What the app host needs to start `variant`, built here by setup: the variant's folder, its setup
    inputs (shared code outside the folder), and whatever its start command names by a relative path that
    leads out of the folder and exists (actix's `../../../target/release/actix-shootout`, Node's
    `../common/cluster.js`). A path inside one already listed is left out. Not included: what setup
    installs system-wide (apt packages, toolchains), which the host installs itself, and shootout-load,
    which load.remote.driver_on ships to the load host. `root`, the project's folder, bounds what is
    shipped: a start command's path that leads outside it is refused (ManifestError)."""
    folder = variant.folder.resolve()
    wanted = [folder, *variant.setup.inputs]
    for word in shlex.split(variant.start.command):
        if "/" not in word or word.startswith("/") or "{" in word:
            continue
        target = Path(os.path.normpath(folder / word))
        if target.exists() and not target.is_relative_to(folder):
            if not target.is_relative_to(root.resolve()):
                raise ManifestError(f"{variant.manifest}: start.command: {word!r} leads outside {root}, "
                                    f"which is all that is shipped to the app host")
            wanted.append(target)
    return _outermost(wanted)


def _outermost(paths: list[Path]) -> list[Path]:
    """The paths in order, without duplicates and without those inside another of them."""
    kept: list[Path] = []
    for path in paths:
        if not any(path.is_relative_to(other) for other in paths if other != path) and path not in kept:
            kept.append(path)
    return kept
