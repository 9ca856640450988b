"""Installs what a framework or the harness needs: Debian packages, then the manifest's setup commands."""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

from .catalog import Variant

# What setup produces, at the top of a framework folder: not hashed, and what `clean` removes.
BUILD_DIRS = (".venv", "node_modules", "bin", "build", "target", "vendor")
# Written by running the code, at any depth; never an input.
_CACHE_DIRS = {"__pycache__"}
MARKER = ".setup-done"
# Held while a folder's setup runs, so two builders (a run and a check, or a test's background builder and
# the test) never build one folder at once; the second waits and then finds it built.
LOCK = ".setup-lock"

# The harness's own tools: executable -> Debian package.
HARNESS_TOOLS = {"wrk": "wrk", "ab": "apache2-utils", "h2load": "nghttp2-client", "taskset": "util-linux"}


class SetupError(RuntimeError):
    pass


def _apt_installed(package: str) -> bool:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Status}", package], capture_output=True, text=True)
    return out.returncode == 0 and "install ok installed" in out.stdout


_apt_updated = False


def apt_install(packages: list[str], log) -> None:
    """Installs the missing packages with apt-get; needs root. Never starts services (policy-rc.d)."""
    global _apt_updated
    missing = [p for p in packages if not _apt_installed(p)]
    if not missing:
        return
    if os.geteuid() != 0:
        raise SetupError(f"Debian packages missing: {' '.join(missing)}; run as root or install them")
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    # Packages such as nginx or php-fpm start a system service on install; benchmarks start their own
    # copies, so forbid that for the duration of the install.
    policy = Path("/usr/sbin/policy-rc.d")
    had_policy = policy.exists()
    if not had_policy:
        policy.write_text("#!/bin/sh\nexit 101\n")
        policy.chmod(0o755)
    try:
        if not _apt_updated:
            log(f"apt-get update (to install {' '.join(missing)})")
            subprocess.run(["apt-get", "update", "-qq", "-o", "DPkg::Lock::Timeout=600"], check=True, env=env,
                           capture_output=True)
            _apt_updated = True
        log(f"apt-get install {' '.join(missing)}")
        # Another apt may hold the dpkg lock (unattended upgrades, a parallel run): wait instead of failing.
        done = subprocess.run(["apt-get", "install", "-y", "-qq", "--no-install-recommends",
                               "-o", "DPkg::Lock::Timeout=600", *missing],
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            raise SetupError(f"apt-get install {' '.join(missing)} failed:\n{done.stderr[-2000:]}")
    finally:
        if not had_policy:
            policy.unlink(missing_ok=True)


def ensure_harness_tools(log) -> None:
    missing = [pkg for exe, pkg in HARNESS_TOOLS.items() if shutil.which(exe) is None]
    if missing:
        apt_install(missing, log)


def folder_hash(folder: Path) -> str:
    """Hash of every source file of the folder (names and bytes), ignoring build output (BUILD_DIRS at its top)."""
    digest = hashlib.sha256()
    for dirpath, dirnames, filenames in os.walk(folder):
        top = Path(dirpath) == folder
        dirnames[:] = sorted(d for d in dirnames if d not in _CACHE_DIRS and not (top and d in BUILD_DIRS))
        for name in sorted(filenames):
            if name in (MARKER, LOCK):
                continue
            path = Path(dirpath) / name
            digest.update(str(path.relative_to(folder)).encode() + b"\0")
            digest.update(path.read_bytes() if path.is_file() else b"")
    return digest.hexdigest()


def setup_hash(variant: Variant) -> str:
    """The folder's hash, and those of the folders its build also reads (setup.inputs)."""
    digests = [folder_hash(variant.folder), *(folder_hash(path) for path in variant.setup.inputs)]
    return digests[0] if len(digests) == 1 else hashlib.sha256("".join(digests).encode()).hexdigest()


def is_built(variant: Variant) -> bool:
    marker = variant.folder / MARKER
    return marker.is_file() and marker.read_text().strip() == setup_hash(variant)


@dataclass(frozen=True)
class Spent:
    """Where one setup's time went, in seconds: Debian packages, then the manifest's commands (0 when cached)."""

    variant: str
    install: float
    build: float


# Every setup this process ran, in order: what `./shootout test` reports as its time per stack.
LEDGER: list[Spent] = []


@contextlib.contextmanager
def _building(folder: Path) -> Iterator[None]:
    with (folder / LOCK).open("a") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)  # released when the file closes
        yield


def setup(variant: Variant, log_file: Path, log, *, install: bool = True, background: bool = False) -> None:
    """Runs the variant's setup unless the folder is unchanged since the last successful one. A `background`
    setup runs its commands at the lowest CPU priority, so servers being checked meanwhile keep their pace."""
    if variant.unavailable:
        raise SetupError(f"{variant.id} is unavailable: {variant.unavailable}")
    started = time.monotonic()
    if variant.setup.apt:
        if install:
            apt_install(list(variant.setup.apt), log)
        else:
            missing = [p for p in variant.setup.apt if not _apt_installed(p)]
            if missing:
                raise SetupError(f"{variant.id}: Debian packages missing: {' '.join(missing)}")
    absent = [exe for exe in variant.setup.requires if shutil.which(exe) is None]
    if absent:
        raise SetupError(f"{variant.id}: {variant.manifest}: setup.requires: {', '.join(absent)} not found on PATH")
    installed = time.monotonic()
    if not is_built(variant):
        with _building(variant.folder):
            if not is_built(variant):  # built by another builder while this one waited for the lock
                _build(variant, log_file, log, background)
    LEDGER.append(Spent(variant.id, installed - started, time.monotonic() - installed))


def _build(variant: Variant, log_file: Path, log, background: bool) -> None:
    log(f"setup {variant.id} ({len(variant.setup.commands)} commands, log {log_file})")
    log_file.parent.mkdir(parents=True, exist_ok=True)
    with log_file.open("ab") as out:
        for command in variant.setup.commands:
            out.write(f"$ {command}\n".encode())
            out.flush()
            argv = ["nice", "-n", "19", "bash", "-c", command] if background else ["bash", "-c", command]
            done = subprocess.run(argv, cwd=variant.folder, stdout=out, stderr=out, stdin=subprocess.DEVNULL)
            if done.returncode != 0:
                tail = log_file.read_text(errors="replace").splitlines()[-20:]
                raise SetupError(f"{variant.id}: setup command failed (exit {done.returncode}): {command}\n"
                                 + "\n".join("  | " + line for line in tail))
    (variant.folder / MARKER).write_text(setup_hash(variant) + "\n")
