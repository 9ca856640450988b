"""The conform table of a run (its conform.json, written by run's conform stage: docs/conform.md), added to
each report format after the rest: one row per stack, one column per probe family, passes out of those
graded and the worst finding. summary.json is left as it is: conform.json is the data."""

from __future__ import annotations

import json
from html import escape
from pathlib import Path

from ..conform import record
from .terminal import table

TITLE = "Conformance: bad and hostile requests (shootout conform)"
NOTE = ("Each cell: probes passed out of those graded, and the worst finding (fail: a MUST broken or the "
        "server died; warn: a SHOULD). `./shootout conform --frameworks ID --probe NAME` replays one.")


def rows(run_dir: Path) -> list[tuple[str, ...]] | None:
    """The table's rows, None when the run has no conform.json."""
    path = run_dir / "conform.json"
    if not path.is_file():
        return None
    return record.rows(record.stacks_of(json.loads(path.read_text())))


def _html(found: list[tuple[str, ...]]) -> str:
    head = "".join(f'<th class="{"l" if i == 0 else ""}">{escape(h)}</th>' for i, h in enumerate(record.HEADER))
    body = "".join("<tr>" + "".join(f'<td class="{"l" if i == 0 else ""}">{escape(c)}</td>' for i, c in enumerate(row))
                   + "</tr>" for row in found)
    return (f'<section class="card"><h3>{escape(TITLE)}</h3><p class="note">{escape(NOTE)}</p><table><thead>'
            f"<tr>{head}</tr></thead><tbody>{body}</tbody></table></section>")


def appended(text: str, fmt: str, run_dir: Path) -> str:
    """`text`, a report in format `fmt`, with the run's conform table added (json: unchanged)."""
    found = rows(run_dir)
    if not found or fmt == "json":
        return text
    if fmt == "html":
        return text.replace("</main>", _html(found) + "</main>", 1)
    if fmt == "markdown":
        lines = ["| " + " | ".join(row) + " |" for row in (record.HEADER, ("---",) * len(record.HEADER), *found)]
        return text.rstrip("\n") + f"\n\n## {TITLE}\n\n{NOTE}\n\n" + "\n".join(lines) + "\n"
    return f"{text}\n\n== {TITLE.lower()} ==\n{table(record.HEADER, found, {0})}"
