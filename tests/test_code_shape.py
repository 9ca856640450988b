"""Shape rules of the code base (issue 16): small functions' signatures and files a reader can hold."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MAX_PARAMETERS = 6
MAX_LINES = 400


def _parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    args = node.args
    return len(args.posonlyargs) + len(args.args) + len(args.kwonlyargs) + bool(args.vararg) + bool(args.kwarg)


def test_no_function_takes_more_than_six_parameters():
    wide = []
    for path in sorted((ROOT / "src").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and _parameters(node) > MAX_PARAMETERS:
                wide.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} ({_parameters(node)})")
    assert not wide, wide


def test_no_source_file_is_over_400_lines():
    files = [*(ROOT / "src").rglob("*.py"), *(ROOT / "loadgen" / "src").rglob("*.rs")]
    long = [f"{p.relative_to(ROOT)} ({n})" for p in files if (n := len(p.read_text().splitlines())) > MAX_LINES]
    assert not long, long
