"""Unit tests of the framework-independent code (run: .venv/bin/python -m pytest frameworks/python/common)."""

import hashlib

import pytest
from shootout_common import env, hashing


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        (None, "missing query parameter n"),
        ("", "n must be an integer"),
        ("1.5", "n must be an integer"),
        ("x", "n must be an integer"),
        ("0", "n must be between 1 and 100000"),
        ("-3", "n must be between 1 and 100000"),
        ("100001", "n must be between 1 and 100000"),
    ],
)
def test_parse_n_refuses_with_the_reason(raw, reason):
    with pytest.raises(ValueError, match=f"^{reason}$"):
        hashing.parse_n(raw)


@pytest.mark.parametrize(("raw", "n"), [("1", 1), ("100000", 100000), ("007", 7)])
def test_parse_n_accepts_the_range(raw, n):
    assert hashing.parse_n(raw) == n


def test_iterated_sha256_hashes_the_file_then_the_raw_digest(tmp_path):
    path = tmp_path / "data"
    path.write_bytes(b"abc")
    first = hashlib.sha256(b"abc").digest()
    assert hashing.iterated_sha256(str(path), 1) == first.hex()
    assert hashing.iterated_sha256(str(path), 3) == hashlib.sha256(hashlib.sha256(first).digest()).hexdigest()


def test_db_pool_reads_a_positive_integer(monkeypatch):
    monkeypatch.setenv("DB_POOL", "3")
    assert env.db_pool() == 3


@pytest.mark.parametrize("raw", ["0", "-1", "three", ""])
def test_db_pool_names_the_variable_and_value(monkeypatch, raw):
    monkeypatch.setenv("DB_POOL", raw)
    with pytest.raises(RuntimeError, match=f"DB_POOL is '{raw}': expected a positive integer"):
        env.db_pool()


def test_a_missing_variable_is_named(monkeypatch):
    monkeypatch.delenv("HASH_FILE", raising=False)
    with pytest.raises(RuntimeError, match="environment variable HASH_FILE is not set"):
        env.value("HASH_FILE")
