"""`shootout list`: every framework and variant by language, with its workloads and status."""

from __future__ import annotations

from ..stacks import catalog, provision
from ..config.settings import Settings


def status(variant: catalog.Variant) -> str:
    if variant.unavailable:
        return f"unavailable: {variant.unavailable}"
    return "ready" if provision.is_built(variant) else "not built"


def transport(served: catalog.Transport) -> str:
    """What it serves besides cleartext HTTP/1.1, e.g. "tls,h2,h2c", and what terminates its TLS when that is a
    proxy ("tls,h2 (nginx)"), and "only" for a server without HTTP/1.1 ("tls,h2,h2c only"); "-" for none."""
    names = ",".join(name for name, on in (("tls", served.tls), ("h2", served.h2), ("h2c", served.h2c)) if on)
    return (names + (f" ({served.proxy})" if served.proxy else "") + ("" if served.h1 else " only")) or "-"


def run(settings: Settings) -> int:
    variants = settings.variants()
    rows = [(v.id, v.version, ",".join(w for w, _ in v.workloads) or "-", transport(v.transport), status(v))
            for v in variants]
    header = ("id", "version", "workloads", "transport", "status")
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]

    def line(row: tuple[str, ...]) -> str:
        return "  " + "  ".join(cell.ljust(width) for cell, width in zip(row, widths)) + "  " + row[-1]

    languages = sorted({v.language for v in variants})
    for i, language in enumerate(languages):
        ids = [row for row, v in zip(rows, variants) if v.language == language]
        ready = sum(1 for v in variants if v.language == language and not v.unavailable)
        print(("\n" if i else "") + f"{language} ({ready} of {len(ids)} available)")
        print(line(header))
        for row in ids:
            print(line(row))
    return 0
