"""conform.json (schemas/conform.schema.json) and the rows of its table: per id and family, the probes
passed out of those run, and the worst finding."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import jsonschema

from .probe import FAMILIES, Probe
from .runner import Finding

SCHEMA = 1
SCHEMA_FILE = Path(__file__).resolve().parents[3] / "schemas" / "conform.schema.json"
_WORST = ("fail", "warn")


@dataclass
class Stack:
    """One id's findings; `error` says why it has none (not built, failed to start)."""

    id: str
    findings: list[Finding] = field(default_factory=list)
    seconds: float = 0.0
    error: str | None = None
    http2: str | None = None  # where its HTTP/2 probes went: "h2c", "h2+tls"; None: it serves no HTTP/2

    def as_json(self) -> dict:
        return {"id": self.id, "seconds": round(self.seconds, 2), "error": self.error, "http2": self.http2,
                "findings": [f.as_json() for f in self.findings]}


def _probe(probe: Probe | dict) -> dict:
    if isinstance(probe, dict):  # an h2spec case, listed as its report names it
        return probe
    return {"name": probe.name, "family": probe.family, "section": probe.section, "level": probe.level,
            "what": probe.what}


def document(stacks: list[Stack], probes: tuple, started: str) -> dict:
    """The whole of conform.json, checked against its schema."""
    doc = {"schema": SCHEMA, "started": started, "probes": [_probe(p) for p in probes],
           "stacks": [s.as_json() for s in stacks]}
    jsonschema.validate(doc, json.loads(SCHEMA_FILE.read_text()))
    return doc


def write(path: Path, doc: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(doc, indent=1) + "\n")


def cell(findings: list[Finding]) -> str:
    """'12/15, fail cl-te': passes out of the graded (skips left out), and the worst finding."""
    graded = [f for f in findings if f.grade != "skip"]
    if not graded:
        return "-"
    passed = sum(f.grade == "pass" for f in graded)
    worst = next((f for grade in _WORST for f in graded if f.grade == grade), None)
    return f"{passed}/{len(graded)}" + (f", {worst.grade} {worst.probe}" if worst else "")


def rows(stacks: list[Stack]) -> list[tuple[str, ...]]:
    """One row per id: its id, then a cell per family; an id without findings says why in a word or two
    (the lines above the table and conform.json say it in full)."""
    return [(s.id, *(cell([f for f in s.findings if f.family == family]) for family in FAMILIES)) if s.findings
            else (s.id, (s.error or "-").split(":")[0].split(" (")[0], *[""] * (len(FAMILIES) - 1)) for s in stacks]


HEADER = ("id", *FAMILIES)


def stacks_of(doc: dict) -> list[Stack]:
    """The stacks of a conform.json, read back (the report's table)."""
    return [Stack(s["id"], [Finding(**f) for f in s["findings"]], s["seconds"], s["error"], s.get("http2"))
            for s in doc["stacks"]]
