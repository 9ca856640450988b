"""The Rust stacks share their compiled dependencies: each depends on the workspace-hack crate (so that
`cargo build -p ID` asks for the same features whichever stack it builds) and hashes it as a setup input
(so that a change to it rebuilds them)."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
RUST = ROOT / "frameworks" / "rust"
HACK = "shootout-workspace-hack"


def test_every_rust_stack_builds_against_the_workspace_hack():
    stacks = [p.parent for p in RUST.glob("*/framework.toml")]
    assert len(stacks) >= 8
    for folder in stacks:
        cargo = tomllib.loads((folder / "Cargo.toml").read_text())
        manifest = tomllib.loads((folder / "framework.toml").read_text())
        if manifest.get("unavailable"):
            continue
        assert HACK in cargo["dependencies"], f"{folder}/Cargo.toml: no {HACK} dependency"
        assert "../workspace-hack" in manifest["setup"]["inputs"], f"{folder}/framework.toml: setup.inputs"
    assert HACK in tomllib.loads((RUST / "common" / "Cargo.toml").read_text())["dependencies"]
