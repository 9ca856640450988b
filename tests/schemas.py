"""Validation of result lines against the committed schema, shared by unit and integration tests."""

import json
from pathlib import Path

import jsonschema

SCHEMA = json.loads((Path(__file__).resolve().parents[1] / "schemas" / "results.schema.json").read_text())


def assert_valid_lines(lines: list[dict]) -> None:
    for line in lines:
        jsonschema.validate(line, SCHEMA)
