"""The orchestrator's layers (docs/architecture.md): a module imports only from its own layer or the layers
below it, and no modules import each other in a circle."""

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGE = ROOT / "src" / "webshootout"
# Bottom to top: the one place the order is written. A module's layer is its subpackage, or its own name
# for the modules at the top of the package.
LAYERS = ("console", "system", "conform", "workloads", "stacks", "config", "hosts", "services", "server",
          "load", "results", "report", "harness", "engine", "commands", "cli")
ENTRY = {"__init__": "console", "__main__": "cli"}  # the package's ROOT and version sit at the bottom


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def layer_of(module: str) -> str:
    first = module.split(".")[1] if "." in module else "__init__"
    return ENTRY.get(first, first)


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def imports_of(path: Path) -> set[str]:
    """Every webshootout module this file imports, at any depth of the file (function-level ones too)."""
    here = module_name(path)
    package = here if path.name == "__init__.py" else here.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {a.name for a in node.names if a.name.split(".")[0] == "webshootout"}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            elif (node.module or "").split(".")[0] == "webshootout":
                source = node.module
            else:
                continue
            for alias in node.names:
                submodule = f"{source}.{alias.name}"
                found.add(submodule if _exists(submodule) else source)
    return found - {here}


def graph() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in sorted(PACKAGE.rglob("*.py"))}


def upward_imports(edges: dict[str, set[str]]) -> list[str]:
    rank = {name: i for i, name in enumerate(LAYERS)}
    return [f"{m} ({layer_of(m)}) imports {t} ({layer_of(t)})"
            for m, targets in edges.items() for t in sorted(targets)
            if rank[layer_of(t)] > rank[layer_of(m)]]


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each a circle of imports."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in edges.get(node, ()):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def test_every_module_has_a_layer():
    unplaced = sorted(m for m in graph() if layer_of(m) not in LAYERS)
    assert not unplaced, f"add these to LAYERS or move them into a layer's package: {unplaced}"


def test_no_module_imports_from_a_higher_layer():
    assert upward_imports(graph()) == []


def test_no_import_cycle():
    assert cycles(graph()) == []


def test_the_checks_catch_what_they_should():
    edges = {"webshootout.system.process": {"webshootout.harness"},
             "webshootout.report.html": {"webshootout.report.fmt", "webshootout.console"},
             "webshootout.report.fmt": {"webshootout.report.html"}}
    assert upward_imports(edges) == ["webshootout.system.process (system) imports webshootout.harness (harness)"]
    assert cycles(edges) == [["webshootout.report.fmt", "webshootout.report.html"]]


def test_the_tests_mirror_the_package():
    """Each subpackage's unit tests live in tests/<subpackage>/ (integration tests span layers)."""
    packages = {p.parent.name for p in PACKAGE.glob("*/__init__.py")}
    test_dirs = {p.name for p in (ROOT / "tests").iterdir() if p.is_dir() and (p / "__init__.py").is_file()}
    assert test_dirs - {"integration"} <= packages, sorted(test_dirs - packages)


ARCHITECTURE = ROOT / "docs" / "architecture.md"


@pytest.mark.parametrize("module", sorted(set(re.findall(r"`((?:[a-z_]+/)*[a-z_]+\.py)`", ARCHITECTURE.read_text()))))
def test_architecture_names_only_modules_that_exist(module):
    path = ROOT / module if module.startswith("tests/") else PACKAGE / module
    assert path.is_file(), f"docs/architecture.md names {module}, which does not exist"


WORKLOAD_GUIDE = ROOT / "docs" / "adding-a-workload.md"


@pytest.mark.parametrize("path", sorted(set(re.findall(r"`((?:src|tests|docs)/[\w/.-]+\.(?:py|md))`",
                                                       WORKLOAD_GUIDE.read_text()))))
def test_adding_a_workload_names_only_paths_that_exist(path):
    assert (ROOT / path).is_file(), f"docs/adding-a-workload.md names {path}, which does not exist"
