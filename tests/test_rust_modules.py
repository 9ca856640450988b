"""The Rust crates of our own (the load generator, and the code the Rust stacks share) have no modules that
import one another in a circle (issue 48), the rule tests/test_layers.py holds the orchestrator to.

A module is a source file, found from the crate's root by its `mod name;` declarations; an inline module
(`mod tests { ... }`) belongs to its file. A file imports the modules its paths name: `use` trees and paths
in code that start at `crate::`, `super::`, `self::` or a child module, resolved to the longest of them that
is a module. What only a method call ties together (an `impl` split over files) is not an import and not seen.
"""

import re
import tomllib
from pathlib import Path

from test_layers import cycles  # Tarjan over an import graph, the orchestrator's test's

ROOT = Path(__file__).resolve().parents[1]
CRATES = {"shootout-load": ROOT / "loadgen" / "src" / "lib.rs",
          "shootout-common": ROOT / "frameworks" / "rust" / "common" / "src" / "lib.rs"}

# Comments, strings and character literals, in one alternation so whichever starts first wins.
_NOISE = re.compile(r'//[^\n]*|/\*.*?\*/|r(#*)".*?"\1|b?"(?:\\.|[^"\\])*"|b?\'(?:\\.|[^\'\\])\'', re.S)
_TOKENS = re.compile(r"\b(?:pub(?:\([^)]*\))?\s+)?use\s+(?P<tree>[^;]+);"
                     r"|\bmod\s+(?P<inline>\w+)\s*\{|(?P<open>\{)|(?P<close>\})"
                     r"|(?<![\w:$])(?P<path>\w+(?:::\w+)+)")
_DECLARED = re.compile(r"\bmod\s+(\w+)\s*;")


def _code(path: Path) -> str:
    return _NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group(0)), path.read_text())


def modules(root: Path) -> dict[tuple[str, ...], Path]:
    """Every file module of the crate whose root file is `root`, by its path from the crate."""
    found: dict[tuple[str, ...], Path] = {}

    def visit(name: tuple[str, ...], path: Path) -> None:
        found[name] = path
        folder = path.parent if path.name in ("mod.rs", root.name) else path.with_suffix("")
        for child in _DECLARED.findall(_code(path)):
            for candidate in (folder / f"{child}.rs", folder / child / "mod.rs"):
                if candidate.is_file():
                    visit((*name, child), candidate)

    visit((), root)
    return found


def _expand(tree: str) -> list[list[str]]:
    """`a::{b, c::{d, e}}` as [[a, b], [a, c, d], [a, c, e]]."""
    tree = re.sub(r"\s+", "", tree)
    if "{" not in tree:
        return [tree.split("::")]
    head, _, rest = tree.partition("{")
    inner, depth, parts, start = rest[:-1], 0, [], 0
    for i, ch in enumerate(inner):
        depth += (ch == "{") - (ch == "}")
        if ch == "," and depth == 0:
            parts.append(inner[start:i])
            start = i + 1
    parts.append(inner[start:])
    prefix = [p for p in head.split("::") if p]
    return [prefix + sub for part in parts if part for sub in _expand(part)]


def _resolve(segments: list[str], here: tuple[str, ...], known: dict) -> tuple[str, ...] | None:
    """The module a path names from module `here`, or None when it leaves the crate."""
    if segments[0] == "crate":
        absolute = segments[1:]
    elif segments[0] in ("super", "self"):
        base = list(here)
        while segments and segments[0] in ("super", "self"):
            if segments.pop(0) == "super":
                base = base[:-1]
        absolute = base + segments
    elif (*here, segments[0]) in known:
        absolute = [*here, *segments]
    else:
        return None  # another crate, or an item of this module
    for end in range(len(absolute), -1, -1):
        if tuple(absolute[:end]) in known:
            return tuple(absolute[:end])
    return None


def imports(name: tuple[str, ...], path: Path, known: dict) -> set[tuple[str, ...]]:
    found = set()
    inline: list[tuple[str, int]] = []  # the inline modules we are in, with the brace depth they opened at
    depth = 0
    for token in _TOKENS.finditer(_code(path)):
        here = (*name, *(module for module, _ in inline))
        if token["open"]:
            depth += 1
        elif token["close"]:
            depth -= 1
            if inline and inline[-1][1] == depth:
                inline.pop()
        elif token["inline"]:
            inline.append((token["inline"], depth))
            depth += 1
        else:
            trees = _expand(token["tree"]) if token["tree"] else [token["path"].split("::")]
            found |= {target for tree in trees if (target := _resolve(tree, here, known)) is not None}
    return found - {name}


def _named(module: tuple[str, ...]) -> str:
    return "::".join(module) or "crate"


def graph(root: Path) -> dict[str, set[str]]:
    """Each module's name (`worker::epoll`, the root `crate`) and the names of the modules it imports."""
    known = modules(root)
    return {_named(m): {_named(t) for t in imports(m, p, known)} for m, p in known.items()}


def test_no_module_import_circle_in_our_crates():
    circles = {crate: found for crate, root in CRATES.items() if (found := cycles(graph(root)))}
    assert circles == {}


def test_every_crate_is_read_whole():
    """The walk from the library's root reaches every source file but the binaries' roots."""
    for crate, root in CRATES.items():
        manifest = tomllib.loads((root.parents[1] / "Cargo.toml").read_text())
        binaries = {root.parents[1] / b["path"] for b in manifest.get("bin", [])}
        unreached = set(root.parent.rglob("*.rs")) - set(modules(root).values()) - binaries
        assert not unreached, (crate, sorted(str(p.relative_to(ROOT)) for p in unreached))


def test_the_check_sees_each_kind_of_import(tmp_path):
    src = tmp_path / "src"
    (src / "net").mkdir(parents=True)
    files = {
        "lib.rs": "pub mod a;\npub mod b;\npub mod net;\npub mod c;\n",
        # No import: another crate, a string, a quote character, a comment, a test module's `super::*`.
        "a.rs": 'use std::fmt;\nfn f() -> char { g("crate::b"); \'"\' } // crate::b\n'
                'mod tests {\n    use super::*;\n}\n',
        "b.rs": "use crate::{net::wire::{self, Frame}, a};\n",
        "net/mod.rs": "mod wire;\npub fn f() { wire::send() }\n",
        "net/wire.rs": "pub fn send() { super::super::c::go(); }\n",
        "c.rs": "pub fn go() { crate::net::f() }\n",
    }
    for name, text in files.items():
        (src / name).write_text(text)
    edges = graph(src / "lib.rs")
    assert edges == {"crate": set(), "a": set(), "b": {"a", "net::wire"}, "net": {"net::wire"},
                     "net::wire": {"c"}, "c": {"net"}}
    assert cycles(edges) == [["c", "net", "net::wire"]]
