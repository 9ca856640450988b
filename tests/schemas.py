"""Validation of result lines against the committed schema, shared by unit and integration tests."""

import json
from pathlib import Path

import jsonschema

SCHEMAS = Path(__file__).resolve().parents[1] / "schemas"
SCHEMA = json.loads((SCHEMAS / "results.schema.json").read_text())
SUMMARY = json.loads((SCHEMAS / "summary.schema.json").read_text())


def assert_valid_lines(lines: list[dict]) -> None:
    for line in lines:
        jsonschema.validate(line, SCHEMA)


def assert_valid_summary(data: dict) -> None:
    jsonschema.validate(data, SUMMARY)
