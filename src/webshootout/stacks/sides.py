"""The two sides of `shootout ab`: a variant each, from a framework id, an id at another version of its
framework (ID@VERSION, pins.py), the user's own folder for B (--b-dir), and settings of their own
(--a-env, --b-env)."""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path

from . import pins
from .catalog import ManifestError, Variant, load_manifest, select

_KEY = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


class SideError(ValueError):
    """A side that cannot be built; the message names the flag and the value."""


def parse_env(flag: str, items: list[str] | None) -> tuple[tuple[str, str], ...]:
    """KEY=VALUE items of --a-env or --b-env."""
    pairs = []
    for item in items or []:
        key, eq, text = item.partition("=")
        if not eq or not _KEY.fullmatch(key):
            raise SideError(f"{flag}: expected KEY=VALUE with a variable name for KEY, got {item!r}")
        pairs.append((key, text))
    return tuple(pairs)


def _from_folder(folder: Path, framework: str) -> Variant:
    manifest = folder / "framework.toml"
    if not manifest.is_file():
        raise SideError(f"--b-dir: {folder} has no framework.toml")
    try:
        found = {v.id: v for v in load_manifest(manifest)}
    except ManifestError as exc:
        raise SideError(f"--b-dir: {exc}") from None
    if framework not in found:
        raise SideError(f"--b-dir: {manifest} declares no {framework!r} (it declares {', '.join(sorted(found))})")
    return found[framework]


def _with(variant: Variant, env: tuple[tuple[str, str], ...], label: str, rename: bool) -> Variant:
    """The variant with its start environment overridden, renamed per side when both sides share an id (logs,
    result lines and the page name each side apart)."""
    start = dataclasses.replace(variant.start, env=tuple({**dict(variant.start.env), **dict(env)}.items()))
    if not rename:
        return dataclasses.replace(variant, start=start)
    named = variant.display if variant.version in variant.display else f"{variant.display} {variant.version}"
    return dataclasses.replace(variant, start=start, id=f"{variant.id}.{label.lower()}", display=f"{named} ({label})")


def _side(everything: list[Variant], spec: str, label: str, versions: Path) -> Variant:
    """ID or ID@VERSION (built apart under `versions`, pins.py)."""
    framework, at, version = spec.partition("@")
    variant = select(everything, (framework,), f"ab {label}")[0]
    if not at:
        return variant
    try:
        return pins.at_version(variant, version, versions)
    except pins.PinError as exc:
        raise SideError(f"ab {label}: {exc}") from None


def sides(everything: list[Variant], a: str, b: str, b_dir: Path | None,
          envs: tuple[tuple, tuple], versions: Path) -> tuple[Variant, Variant]:
    """A and B; `envs` are the (KEY, VALUE) pairs of --a-env and --b-env; stacks at a version of their
    framework are copied under `versions`."""
    if b_dir and "@" in b:
        raise SideError(f"--b-dir: B is the stack in that folder; give B as an id, not {b!r}")
    try:
        left = _side(everything, a, "A", versions)
        right = _from_folder(b_dir, b) if b_dir else _side(everything, b, "B", versions)
    except ManifestError as exc:
        raise SideError(str(exc)) from None
    for side in (left, right):
        if side.unavailable:
            raise SideError(f"ab: {side.id} is unavailable here: {side.unavailable}")
    rename = left.id == right.id
    return _with(left, envs[0], "A", rename), _with(right, envs[1], "B", rename)
