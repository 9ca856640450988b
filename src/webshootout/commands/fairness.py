"""`shootout fairness [--check]`: write docs/fairness.md from the manifests, or prove it is current; either
way, list the manifests that depart from the rule without saying why."""

from __future__ import annotations

import sys
from pathlib import Path

from ..stacks import catalog, fairness


def run(root: Path, check: bool = False) -> int:
    variants = catalog.discover(root)
    doc = root / fairness.DOC
    wanted = fairness.render(variants)
    failed = False
    if check:
        if not doc.is_file() or doc.read_text() != wanted:
            print(f"{fairness.DOC} is not what the manifests say: run ./shootout fairness", file=sys.stderr)
            failed = True
    else:
        doc.write_text(wanted)
        print(f"wrote {fairness.DOC} ({len(variants)} ids)")
    found = [problem for variant in variants for problem in fairness.problems(variant)]
    for problem in found:
        print(f"fairness: {problem}", file=sys.stderr)
    return 1 if failed or found else 0
