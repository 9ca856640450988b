"""The HTTP/2 part of `shootout conform`: which of an id's servers the HTTP/2 probes go to (its cleartext one
when it takes h2c, else one started with the run's certificate when it serves h2 over TLS), our "h2" probes
and h2spec's cases there."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from ..conform import catalog, h2spec, record
from ..conform.probe import FAMILIES, HTTP2, Probe


@dataclass
class Probes:
    """What one conform command runs: the HTTP/1.1 probes, the HTTP/2 ones, and h2spec (its binary once
    installed; True: wanted, not yet looked for)."""

    h1: tuple[Probe, ...]
    h2: tuple[Probe, ...]
    h2spec: Path | bool = False
    entries: dict[str, dict] = field(default_factory=dict)  # h2spec's cases as conform.json lists probes
    calls_only: bool = False  # a gRPC server, which answers only gRPC calls (h2spec.calls_only)

    def all(self) -> tuple:
        return (*self.h1, *self.h2, *self.entries.values())


def split(name: str | None, slow: bool, families: tuple[str, ...] = FAMILIES) -> Probes:
    """The probes `--probe NAME` (or none: all of `families`) selects; NAME h2spec runs h2spec alone."""
    if name == "h2spec":
        return Probes((), (), True)
    chosen = [p for p in catalog.selected(name, slow) if name is not None or p.family in families]
    return Probes(tuple(p for p in chosen if p.family not in HTTP2), tuple(p for p in chosen if p.family == "h2"),
                  name is None and "h2spec" in families)


def transport_of(variant) -> str | None:
    """Where the id serves HTTP/2: "h2c" on its cleartext server, "h2+tls" by ALPN, or None."""
    claimed = getattr(variant, "transport", None)
    if claimed is None:
        return None
    return "h2c" if claimed.h2c else "h2+tls" if claimed.h2 else None


def h2spec_for(ready: list, log: Callable[[str], None]) -> Path | bool:
    """h2spec's binary where an id to probe serves HTTP/2 (installed first if missing), else False."""
    if not any(transport_of(v) for v in ready):
        return False
    return h2spec.ensure(log) or False


def probe(subject, probes: Probes, show: bool, result: record.Stack, each: Callable) -> None:
    """Our HTTP/2 probes through `each` (the command's probe loop), then h2spec, on the subject's server."""
    each(subject, probes.h2, show, result.findings)
    if not isinstance(probes.h2spec, Path):
        return
    vid = subject.variant.id
    cases, why = h2spec.run(probes.h2spec, subject.target())
    cases = h2spec.calls_only(cases) if probes.calls_only else cases
    if why is not None:
        print(f"{vid} h2spec: {why}")
    for entry, finding in cases:
        probes.entries.setdefault(entry["name"], entry)
        result.findings.append(finding)
    failed = [f.probe for f in (c for _, c in cases) if f.grade == "fail"]
    if cases:
        print(f"{vid} h2spec: {len(cases) - len(failed)}/{len(cases)} cases passed"
              + (f"; failed: {', '.join(failed[:8])}" + (" ..." if len(failed) > 8 else "") if failed else ""))
    if not subject.alive():
        print(f"{vid} h2spec: the server died during h2spec's cases; started again")
        subject.restart()
