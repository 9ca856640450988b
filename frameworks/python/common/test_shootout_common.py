"""Unit tests of the framework-independent code (run: .venv/bin/python -m pytest frameworks/python/common)."""

import hashlib

import pytest
from shootout_common import env, hashing, items, jsoncomp, upload
from shootout_common import techempower as te


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


@pytest.mark.parametrize(
    ("raw", "n"),
    [(None, 1), ("", 1), ("x", 1), ("1.5", 1), ("0", 1), ("-4", 1), ("1", 1), ("20", 20), ("500", 500),
     ("501", 500), ("99999999999999999999", 500)],
)
def test_count_clamps_to_1_through_500(raw, n):
    assert te.count(raw) == n


def test_random_ids_are_in_the_table():
    ids = te.random_ids(2000)
    assert len(ids) == 2000
    assert all(1 <= i <= te.WORLD_ROWS for i in ids)
    assert 1 <= te.random_id() <= te.WORLD_ROWS


def test_updates_come_in_lock_order_with_their_new_numbers():
    worlds = [te.world(9, 1), te.world(3, 2), te.world(9, 5)]
    assert te.updates_in_lock_order(worlds) == [(3, 2), (9, 1), (9, 5)]


def test_fortunes_sorted_adds_the_request_time_fortune_and_sorts_by_code_point():
    rows = [(1, "fortune: No such file or directory"), (12, "フレームワークのベンチマーク"),
            (11, "<script>alert(1)</script>"), (2, "A computer scientist")]
    fortunes = te.fortunes_sorted(rows)
    assert [f.id for f in fortunes] == [11, 2, 0, 1, 12]
    assert fortunes[2] == te.Fortune(0, "Additional fortune added at request time.")


def test_fortunes_sorted_keeps_orm_objects():
    class Row:
        def __init__(self, id_, message):
            self.id, self.message = id_, message

    row = Row(5, "B")
    fortunes = te.fortunes_sorted([row])
    assert fortunes[0] is te.ADDITIONAL and fortunes[1] is row


def test_world_cache_answers_from_its_rows():
    cache = te.WorldCache()
    assert not cache.filled
    cache.fill((i, i * 2) for i in range(1, te.WORLD_ROWS + 1))
    assert cache.filled
    picked = cache.pick(300)
    assert len(picked) == 300
    assert all(w["randomNumber"] == 2 * w["id"] for w in picked)


def test_db_pool_total_reads_a_positive_integer(monkeypatch):
    monkeypatch.setenv("DB_POOL_TOTAL", "3")
    assert env.db_pool_total() == 3


def test_tls_context_is_none_without_tls_variables(monkeypatch):
    monkeypatch.delenv("TLS_CERT", raising=False)
    monkeypatch.delenv("TLS_KEY", raising=False)
    assert env.tls_context() is None


@pytest.mark.parametrize(("given", "missing"), [("TLS_CERT", "TLS_KEY"), ("TLS_KEY", "TLS_CERT")])
def test_tls_context_refuses_one_variable_without_the_other(monkeypatch, given, missing):
    monkeypatch.setenv(given, "/some/file.pem")
    monkeypatch.delenv(missing, raising=False)
    with pytest.raises(RuntimeError, match=f"^environment variable {missing} is not set"):
        env.tls_context()


@pytest.mark.parametrize("size", [0, 1, 1024, 65536 + 3])
def test_upload_answer_counts_and_hashes_the_whole_body(size):
    body = bytes(range(251)) * (size // 251 + 1)
    body = body[:size]
    assert upload.answer(body) == f"{size} {hashlib.sha256(body).hexdigest()}"


def test_body_digest_fed_in_uneven_pieces_matches_the_whole_body():
    body = bytes(range(256)) * 300
    digest = upload.BodyDigest()
    at = 0
    for size in (1, 7, 300, 4096, 0, 10000, 2, 17000, 100000):
        digest.update(body[at:at + size])
        at += size
    assert at >= len(body)
    assert digest.answer() == upload.answer(body)


def test_body_digest_of_nothing_is_the_empty_digest():
    assert upload.BodyDigest().answer() == f"0 {hashlib.sha256(b'').hexdigest()}"


def test_body_limit_accepts_1_mib_and_refuses_16():
    assert 1 << 20 <= upload.MAX_BODY < 16 << 20


@pytest.mark.parametrize(
    ("raw", "n"),
    [(None, 1), ("", 1), ("x", 1), ("-3", 1), ("0", 1), ("1", 1), ("100", 100), ("1000", 1000), ("1001", 1000)],
)
def test_json_comp_count_is_held_to_1_through_1000(raw, n):
    assert jsoncomp.count(raw) == n


def test_json_comp_items_number_from_1():
    assert jsoncomp.items(2) == [{"id": 1, "message": "Hello, World!"}, {"id": 2, "message": "Hello, World!"}]
    assert len(jsoncomp.items(1000)) == 1000
    assert jsoncomp.items(3) is not jsoncomp.items(3)


@pytest.mark.parametrize(
    ("page", "size", "limit_offset"),
    [(None, None, (10, 0)), ("3", "7", (7, 14)), ("1", "100", (100, 0)), ("40", "25", (25, 975))],
)
def test_items_page_query_is_limit_and_offset(page, size, limit_offset):
    assert items.page_query(page, size) == limit_offset


@pytest.mark.parametrize(
    ("page", "size", "reason"),
    [("0", None, "page must be between"), (None, "0", "size must be between"), (None, "101", "size must be between"),
     ("x", None, "page must be an integer"), (None, "ten", "size must be an integer"), ("1.5", None, "page must be an")],
)
def test_items_page_query_refuses_with_the_reason(page, size, reason):
    with pytest.raises(ValueError, match=f"^{reason}"):
        items.page_query(page, size)


def test_items_fields_takes_name_and_quantity_and_ignores_the_rest():
    assert items.fields({"name": "x", "quantity": -3, "id": 9}) == ("x", -3)
    assert items.fields({"name": "", "quantity": items.INT_MAX}) == ("", items.INT_MAX)


@pytest.mark.parametrize(
    "body",
    [[{"name": "x", "quantity": 3}], "x", None, {"name": "x"}, {"quantity": 3}, {"name": 5, "quantity": 3},
     {"name": "x", "quantity": "3"}, {"name": "x", "quantity": 1.5}, {"name": "x", "quantity": 3.0},
     {"name": "x", "quantity": True}, {"name": "x", "quantity": items.INT_MAX + 1}],
)
def test_items_fields_refuses_the_wrong_shape(body):
    with pytest.raises(ValueError):
        items.fields(body)


@pytest.mark.parametrize(("ident", "stored"), [(0, False), (1, True), (items.INT_MAX, True), (items.INT_MAX + 1, False)])
def test_items_ids_outside_the_column_name_no_row(ident, stored):
    assert items.is_stored_id(ident) is stored
