"""A run directory: meta.json, results.jsonl (one line per event, appended and fsynced), logs/."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

from . import records

SCHEMA = 1


class ResultsError(ValueError):
    pass


def new_run_dir(base: Path, suite: str) -> Path:
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    path = base / f"{stamp}-{suite}"
    suffix = 1
    while path.exists():
        suffix += 1
        path = base / f"{stamp}-{suite}-{suffix}"
    return path


def trial_key(line: dict) -> tuple:
    """What --resume matches a trial by: the suite part, framework, workload, load point and trial number."""
    return (line["part"], line["framework"], line["workload"], line["point"], line["trial"])


@dataclass
class RunDir:
    path: Path

    @property
    def results(self) -> Path:
        return self.path / "results.jsonl"

    @property
    def meta(self) -> Path:
        return self.path / "meta.json"

    @property
    def logs(self) -> Path:
        return self.path / "logs"

    def create(self) -> None:
        self.logs.mkdir(parents=True, exist_ok=True)

    def write_meta(self, meta: dict) -> None:
        tmp = self.meta.with_suffix(".tmp")
        tmp.write_text(json.dumps({"schema": SCHEMA, **meta}, indent=2, sort_keys=True) + "\n")
        tmp.replace(self.meta)

    def read_meta(self) -> dict:
        try:
            meta = json.loads(self.meta.read_text())
        except FileNotFoundError:
            raise ResultsError(f"{self.path}: no meta.json: not a run directory") from None
        except ValueError as exc:
            raise ResultsError(f"{self.meta}: not valid JSON: {exc}") from None
        if meta.get("schema") != SCHEMA:
            raise ResultsError(f"{self.meta}: schema {meta.get('schema')!r}, this version reads {SCHEMA}")
        return meta

    def append(self, record: records.Record) -> None:
        """Appends one record's line and forces it to disk, so a crash right after keeps it."""
        line = {"schema": SCHEMA, **records.line_of(record)}
        records.check_line(line)
        text = json.dumps(line, sort_keys=True) + "\n"
        self._drop_torn_tail()
        with self.results.open("a") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())

    def _drop_torn_tail(self) -> None:
        """A crash mid-write leaves a last line without its newline: cut it so the file stays valid."""
        if not self.results.exists():
            return
        with self.results.open("rb+") as out:
            data = out.read()
            if data and not data.endswith(b"\n"):
                out.truncate(data.rfind(b"\n") + 1)

    def lines(self) -> list[dict]:
        """Every line, refusing unknown schema versions; a torn last line (crash mid-write) is dropped."""
        if not self.results.exists():
            return []
        out = []
        raw_lines = self.results.read_text().splitlines()
        for number, raw in enumerate(raw_lines, 1):
            if not raw.strip():
                continue
            try:
                line = json.loads(raw)
            except ValueError:
                if number == len(raw_lines):
                    continue
                raise ResultsError(f"{self.results}:{number}: not valid JSON") from None
            if line.get("schema") != SCHEMA:
                raise ResultsError(f"{self.results}:{number}: schema {line.get('schema')!r}, "
                                   f"this version reads {SCHEMA}")
            try:
                records.check_line(line)
            except records.RecordError as exc:
                raise ResultsError(f"{self.results}:{number}: {exc}") from None
            out.append(line)
        return out

    def done_trials(self) -> dict[tuple, float]:
        """The req/s of every recorded trial, by trial_key: what --resume skips."""
        return {trial_key(line): line["rps"] for line in self.lines() if line["kind"] == "trial"}
