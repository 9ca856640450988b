"""`shootout list`: every framework and variant by language, with its workloads and status."""

from __future__ import annotations

from ..stacks import catalog, provision
from ..config.settings import Settings


def status(variant: catalog.Variant) -> str:
    if variant.unavailable:
        return f"unavailable: {variant.unavailable}"
    return "ready" if provision.is_built(variant) else "not built"


def run(settings: Settings) -> int:
    variants = settings.variants()
    rows = [(v.id, v.version, ",".join(w for w, _ in v.workloads) or "-", status(v)) for v in variants]
    header = ("id", "version", "workloads", "status")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(3)]

    def line(row: tuple[str, ...]) -> str:
        return "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[3]

    languages = sorted({v.language for v in variants})
    for i, language in enumerate(languages):
        ids = [row for row, v in zip(rows, variants) if v.language == language]
        ready = sum(1 for v in variants if v.language == language and not v.unavailable)
        print(("\n" if i else "") + f"{language} ({ready} of {len(ids)} available)")
        print(line(header))
        for row in ids:
            print(line(row))
    return 0
