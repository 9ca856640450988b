"""A stack at another version of its framework (`shootout ab express@5.3.0 express@5.2.1`): its folder, and
the shared folders its setup reads, copied apart with the version pin rewritten, so that it is built and
cached on its own (provision.py's hash of the copy) and the original folder is never touched.

The copy lives under runs/versions/<name>@<version>/, laid out like frameworks/ (the stack beside its shared
code), since stacks reach that code by relative paths. A pin is a line of a dependency file naming the
framework and its manifest's version. `npm ci` becomes `npm install`, which moves npm's lock to the new pin
and keeps every other locked package where the lock has it. Other lock checks (go.sum, cargo --locked) may
refuse the new pin: the setup log says so.
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

from .catalog import ManifestError, Variant, load_manifest
from .provision import BUILD_DIRS, MARKER

PIN_FILES = ("package.json", "requirements.txt", "go.mod", "pom.xml", "Cargo.toml", "CMakeLists.txt")
_VERSION = re.compile(r"[0-9A-Za-z][0-9A-Za-z.+_-]*")


class PinError(ValueError):
    """A version that cannot be set; the message names the stack, the version and the files read."""


def _token(version: str) -> re.Pattern:
    return re.compile(rf"(?<![\w.]){re.escape(version)}(?![\w.])")


def rewrite(text: str, name: str, old: str, new: str) -> tuple[str, int]:
    """The text with `old` replaced by `new` on the lines that also name the framework; how many lines changed."""
    lines, changed, token = text.splitlines(keepends=True), 0, _token(old)
    for i, line in enumerate(lines):
        if name.lower() in line.lower() and token.search(line):
            lines[i], changed = token.sub(new, line), changed + 1
    return "".join(lines), changed


def _copy(source: Path, target: Path) -> None:
    """`source` into `target`, which keeps its build output (so an unchanged copy stays built) and nothing else."""
    if target.is_dir():
        for entry in target.iterdir():
            if entry.name not in BUILD_DIRS and entry.name != MARKER:
                shutil.rmtree(entry) if entry.is_dir() and not entry.is_symlink() else entry.unlink()
    shutil.copytree(source, target, dirs_exist_ok=True, symlinks=True,
                    ignore=lambda folder, names: [n for n in names if Path(folder) == source and n in BUILD_DIRS]
                    + [n for n in names if n in ("__pycache__", MARKER)])


def _place(variant: Variant, base: Path) -> Path:
    """Copies the stack and its setup inputs under base, keeping their relative places; returns the copy."""
    root = variant.folder.parent
    places = {variant.folder: base / variant.folder.name}
    for path in variant.setup.inputs:
        where = (base / os.path.relpath(path, root)).resolve()
        if not where.is_relative_to(base.resolve()):
            raise PinError(f"{variant.id}: its setup input {path} lies above its language folder; "
                           f"a version copy cannot keep it beside the stack")
        places[path] = where
    for source, target in places.items():
        target.parent.mkdir(parents=True, exist_ok=True)
        _copy(source, target)
    return places[variant.folder]


def at_version(variant: Variant, version: str, cache: Path) -> Variant:
    """The variant built at `version` of its framework (itself when that is its manifest's version)."""
    if not _VERSION.fullmatch(version):
        raise PinError(f"{variant.id}@{version}: not a version")
    if version == variant.version:
        return variant
    copy = _place(variant, cache / f"{variant.name}@{version}" / variant.folder.parent.name)
    changed = 0
    for name in PIN_FILES:
        path = copy / name
        if path.is_file():
            text, count = rewrite(path.read_text(), variant.name, variant.version, version)
            path.write_text(text)
            changed += count
    if not changed:
        raise PinError(f"{variant.id}@{version}: no line of {', '.join(PIN_FILES)} in {variant.folder} names "
                       f"{variant.name} at its manifest's version {variant.version}, so there is no pin to change")
    manifest = copy / "framework.toml"
    text = manifest.read_text().replace("npm ci", "npm install")
    manifest.write_text(re.sub(r'(?m)^(version\s*=\s*")[^"]*(")', rf"\g<1>{version}\g<2>", text, count=1))
    try:
        found = {v.id: v for v in load_manifest(manifest)}
    except ManifestError as exc:
        raise PinError(f"{variant.id}@{version}: the copy's manifest: {exc}") from None
    return found[variant.id]
