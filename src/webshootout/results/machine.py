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

from .. import __version__
from ..stacks.catalog import Variant
from ..config.settings import Settings


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


def session(root: Path, argv: list[str], postgres: str | None) -> dict:
    """One start of the run (the first, or a --resume): when, how, from which commit, with which tools."""
    tools = {"python": platform.python_version(), "wrk": _output(["wrk", "-v"]), "ab": _output(["ab", "-V"]),
             "h2load": _output(["h2load", "--version"])}
    if postgres:
        tools["postgres"] = postgres
    return {"started": datetime.now(timezone.utc).isoformat(timespec="seconds"),
            "command": "./shootout " + shlex.join(argv), "webshootout": __version__,
            "git_commit": git_commit(root), "tools": tools}


def describe(settings: Settings, variants: list[Variant], argv: list[str], first: dict) -> dict:
    """meta.json of a new run; `first` is its first session. The top-level command, commit and tools are
    the first session's; `argv` is what --resume rebuilds the run's settings from."""
    return {
        "created": first["started"],
        "command": first["command"],
        "argv": list(argv),
        "webshootout": first["webshootout"],
        "git_commit": first["git_commit"],
        "sessions": [first],
        "machine": {
            "cpu_model": _cpu_model(), "cpus": os.cpu_count(), "kernel": platform.release(),
            "memory_gb": round(psutil.virtual_memory().total / 2**30, 1), "hostname": platform.node(),
        },
        "pinning": {"server_cpus": list(settings.server_cpus), "load_cpus": list(settings.load_cpus)},
        "topology": first.get("topology"),  # with a hosts file; each session keeps its own as well
        "tools": first["tools"],
        "frameworks": {v.id: {"display": v.display, "language": v.language, "version": v.version,
                              "server": v.server, "kind": v.kind, "unavailable": v.unavailable}
                       for v in variants},
        "settings": {k: _jsonable(v) for k, v in dataclasses.asdict(settings).items() if k != "root"},
    }
