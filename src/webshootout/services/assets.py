"""The files the harness owns: the 64 KiB hash file and the static page."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

HASH_FILE_BYTES = 65_536

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>webshootout static page</title></head>
<body>
<h1>webshootout</h1>
<p>This page is served from disk by each stack's own static-file path.</p>
{rows}
</body>
</html>
"""


@dataclass(frozen=True)
class Assets:
    hash_file: Path
    static_dir: Path
    # Puts a rewritten file where the servers read it, when that is another host (harness.environment).
    publish: Callable[[Path], object] | None = None

    @property
    def index_html(self) -> Path:
        return self.static_dir / "index.html"

    def rewrite_hash_file(self) -> None:
        # Write then rename, so a server never reads a half-written file.
        tmp = self.hash_file.with_suffix(".tmp")
        tmp.write_bytes(os.urandom(HASH_FILE_BYTES))
        os.chmod(tmp, 0o644)
        tmp.replace(self.hash_file)
        if self.publish is not None:
            self.publish(self.hash_file)

    def env(self) -> dict[str, str]:
        return {"HASH_FILE": str(self.hash_file), "STATIC_DIR": str(self.static_dir)}


def create(directory: Path) -> Assets:
    directory.mkdir(parents=True, exist_ok=True)
    static_dir = directory / "static"
    static_dir.mkdir(exist_ok=True)
    # A few KiB of markup, like a small real page; readable by servers that drop privileges.
    rows = "\n".join(f"<p>Row {i}: the quick brown fox jumps over the lazy dog.</p>" for i in range(60))
    (static_dir / "index.html").write_text(_PAGE.format(rows=rows))
    assets = Assets(directory / "hash.bin", static_dir)
    assets.rewrite_hash_file()
    for path in (directory, static_dir):
        os.chmod(path, 0o755)
    os.chmod(static_dir / "index.html", 0o644)
    return assets

