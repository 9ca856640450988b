"""meta.json's facts: the machine, the tools and frameworks with their versions, the git commit, settings."""

from __future__ import annotations

import dataclasses
import os
import platform
import shlex
import subprocess
from datetime import datetime, timezone
from pathlib import Path

import psutil

from . import __version__
from .catalog import Variant
from .settings import Settings


def _cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def _output(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return "not found"
    text = (done.stdout + done.stderr).strip().splitlines()
    return text[0].strip() if text else "unknown"


def git_commit(root: Path) -> str:
    commit = _output(["git", "-C", str(root), "rev-parse", "HEAD"])
    if len(commit) != 40:
        return "unknown"
    dirty = _output(["git", "-C", str(root), "status", "--porcelain", "--untracked-files=no"])
    return commit + ("-dirty" if dirty not in ("", "unknown", "not found") else "")


def _jsonable(value):
    if isinstance(value, Path):
        return str(value)
    if dataclasses.is_dataclass(value):
        return {k: _jsonable(v) for k, v in dataclasses.asdict(value).items()}
    if isinstance(value, dict):
        return {k: _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    return value


def describe(settings: Settings, variants: list[Variant], argv: list[str]) -> dict:
    return {
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        "command": "./shootout " + shlex.join(argv),
        "webshootout": __version__,
        "git_commit": git_commit(settings.root),
        "machine": {
            "cpu_model": _cpu_model(), "cpus": os.cpu_count(), "kernel": platform.release(),
            "memory_gb": round(psutil.virtual_memory().total / 2**30, 1), "hostname": platform.node(),
        },
        "pinning": {"server_cpus": list(settings.server_cpus), "load_cpus": list(settings.load_cpus)},
        "tools": {"python": platform.python_version(), "wrk": _output(["wrk", "-v"]),
                  "ab": _output(["ab", "-V"])},
        "frameworks": {v.id: {"display": v.display, "language": v.language, "version": v.version,
                              "server": v.server, "kind": v.kind, "unavailable": v.unavailable}
                       for v in variants},
        "settings": {k: _jsonable(v) for k, v in dataclasses.asdict(settings).items() if k != "root"},
    }
