"""The sides of `shootout ab`: ids, --b-dir, --a-env/--b-env, and a stack at another version (pins.py)."""

import json

import pytest

from manifests import BASE
from webshootout.stacks import catalog, pins, provision, sides

MANIFEST = BASE.replace('language = "python"', 'language = "javascript"').replace('version = "1.0"', 'version = "1.2.0"') \
    .replace("[start]", '[setup]\nrequires = []\ninputs = ["../common"]\ncommands = ["npm ci --omit=dev"]\n[start]')


def _tree(tmp_path):
    stack = tmp_path / "frameworks" / "javascript" / "demo"
    (stack / "node_modules").mkdir(parents=True)
    (tmp_path / "frameworks" / "javascript" / "common").mkdir()
    (tmp_path / "frameworks" / "javascript" / "common" / "env.js").write_text("module.exports = {};\n")
    (stack / "framework.toml").write_text(MANIFEST)
    (stack / "package.json").write_text(json.dumps({"dependencies": {"demo": "1.2.0", "pg": "1.2.0"}}, indent=2))
    (stack / "package-lock.json").write_text("{}")
    (stack / "app.js").write_text("require('../common/env.js');\n")
    return catalog.discover(tmp_path)


def test_bad_sides_are_refused_naming_the_flag(root, tmp_path):
    everything = catalog.discover(root)
    with pytest.raises(sides.SideError, match="--a-env: expected KEY=VALUE"):
        sides.parse_env("--a-env", ["POOL"])
    with pytest.raises(sides.SideError, match="ab B: unknown framework id 'nope'"):
        sides.sides(everything, "flask", "nope", None, ((), ()), tmp_path)
    with pytest.raises(sides.SideError, match="has no framework.toml"):
        sides.sides(everything, "flask", "flask", root / "docs", ((), ()), tmp_path)
    with pytest.raises(sides.SideError, match="ab B: flask@x y: not a version"):
        sides.sides(everything, "flask", "flask@x y", None, ((), ()), tmp_path)


def test_one_stack_with_two_settings_gets_an_id_per_side(root, tmp_path):
    a, b = sides.sides(catalog.discover(root), "flask", "flask", None, ((), (("GC", "off"),)), tmp_path)
    assert (a.id, b.id) == ("flask.a", "flask.b") and dict(b.start.env)["GC"] == "off"
    assert "GC" not in dict(a.start.env) and a.folder == b.folder


def test_a_version_is_a_copy_with_its_pin_rewritten_built_apart(tmp_path):
    everything = _tree(tmp_path)
    original = (tmp_path / "frameworks" / "javascript" / "demo")
    before = provision.folder_hash(original)
    a, b = sides.sides(everything, "demo@1.2.0", "demo@1.1.0", None, ((), ()), tmp_path / "versions")
    assert a.folder == original and a.version == "1.2.0"
    assert b.folder == tmp_path / "versions" / "demo@1.1.0" / "javascript" / "demo" and b.version == "1.1.0"
    pinned = json.loads((b.folder / "package.json").read_text())["dependencies"]
    assert pinned == {"demo": "1.1.0", "pg": "1.2.0"}, "only the framework's own line"
    assert (b.folder / "package-lock.json").exists() and b.setup.commands == ("npm install --omit=dev",)
    assert (b.folder.parent / "common" / "env.js").is_file(), "the shared code beside it, as in frameworks/"
    assert provision.folder_hash(original) == before, "the original folder is never touched"
    # Made again, the copy keeps its build output and its marker: it stays built while nothing changed.
    (b.folder / "node_modules" / "kept").mkdir(parents=True)
    (b.folder / provision.MARKER).write_text("hash")
    again = pins.at_version(catalog.select(everything, ("demo",))[0], "1.1.0", tmp_path / "versions")
    assert (again.folder / "node_modules" / "kept").is_dir() and (again.folder / provision.MARKER).is_file()
    assert provision.folder_hash(again.folder) == provision.folder_hash(b.folder)


def test_a_version_without_a_pin_to_change_is_refused(tmp_path):
    everything = _tree(tmp_path)
    (tmp_path / "frameworks" / "javascript" / "demo" / "package.json").write_text("{}")
    with pytest.raises(sides.SideError, match="no line of package.json.* names demo at its manifest's version 1.2.0"):
        sides.sides(everything, "demo", "demo@1.1.0", None, ((), ()), tmp_path / "versions")
