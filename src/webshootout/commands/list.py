"""`shootout list`: every framework and variant, with its status."""

from __future__ import annotations

from ..stacks import catalog, provision
from ..config.settings import Settings


def status(variant: catalog.Variant) -> str:
    if variant.unavailable:
        return f"unavailable: {variant.unavailable}"
    return "ready" if provision.is_built(variant) else "not built"


def run(settings: Settings) -> int:
    variants = settings.variants()
    rows = [(v.id, v.language, v.version, ",".join(w for w, _ in v.workloads) or "-", status(v)) for v in variants]
    header = ("id", "language", "version", "workloads", "status")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(4)]
    for row in [header, *rows]:
        print("  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[4])
    return 0
