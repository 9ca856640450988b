"""TechEmpower's rules for queries, updates, fortunes and cached (workloads/techempower_db.py and rows.py),
rule by rule on canned answers; the load targets' regexes on right and wrong bodies."""

import html
import json
import re

import pytest

from webshootout.services.postgres import FORTUNES, statement_kind
from webshootout.workloads import VerifyError, cached, fortunes, rows, updates
from webshootout.workloads.base import Context
from webshootout.workloads.techempower import FAIL, WARN
from webshootout.workloads.techempower_db import (
    COUNT_CASES, EXTRA_FORTUNE, changed_problems, count_problems, enforce_rule, expected_rows, fortune_problems,
    fortunes_table, normalise, update_count_problems)

TABLE = fortunes_table(FORTUNES)


def levels(problems) -> list[str]:
    return [p.level for p in problems]


# --- the count parameter ------------------------------------------------------------------------------------

@pytest.mark.parametrize("value, rows_wanted", [("2", 2), ("0", 1), ("foo", 1), ("", 1), ("501", 500), (None, 1),
                                                ("-3", 1), ("500", 500), ("20", 20)])
def test_count_parameter_clamps(value, rows_wanted):
    assert expected_rows(value) == rows_wanted


def test_the_count_cases_are_techempowers_and_the_parameter_left_out():
    assert [value for value, _ in COUNT_CASES] == ["2", "0", "foo", "", "501", None]


# --- rows: the answer's shape --------------------------------------------------------------------------------

def test_rows_parse_an_array_of_world_rows():
    assert rows.parse("GET /q", b'[{"id": 1, "randomNumber": 9}, {"randomNumber": 3, "id": 10000}]') == \
        [(1, 9), (10000, 3)]


@pytest.mark.parametrize("body, message", [
    (b"nope", "rule 'body shape': not JSON"),
    (b'{"id": 1, "randomNumber": 9}', "expected a JSON array of rows"),
    (b'[{"id": 1, "randomnumber": 9}]', 'exactly the keys "id" and "randomNumber"'),
    (b'[{"id": 1, "randomNumber": 9, "x": 1}]', 'exactly the keys "id" and "randomNumber"'),
    (b'[{"id": "1", "randomNumber": 9}]', "must be integers"),
    (b'[{"id": 1, "randomNumber": true}]', "must be integers"),
    (b'[{"id": 10001, "randomNumber": 9}]', "id 10001 is not in 1..10000"),
])
def test_rows_parse_names_the_shape_rule(body, message):
    with pytest.raises(VerifyError, match=re.escape(message)) as caught:
        rows.parse("GET /queries?queries=1", body)
    assert caught.value.request == "GET /queries?queries=1"


def test_rows_must_match_the_database():
    rows.match_database("GET /q", [(1, 5)], {1: 5})
    with pytest.raises(VerifyError, match="rule 'rows match the database': row 1 has randomNumber 5 in the "
                                          "database, the answer says 6"):
        rows.match_database("GET /q", [(1, 6)], {1: 5})


def test_500_ids_must_be_drawn_at_random():
    rows.varied("GET /q", [(i, 1) for i in range(1, 501)])
    with pytest.raises(VerifyError, match="rule 'random ids': 1 distinct ids among 500"):
        rows.varied("GET /q", [(7, 1)] * 500)


# --- counting the database's work (verify_queries_count) -----------------------------------------------------

def test_fewer_queries_than_requested_fail_and_many_more_warn():
    assert count_problems("queries", 1280, 1280) == []
    (short,) = count_problems("queries", 64, 1280)
    assert short.level == FAIL and short.message == "Only 64 queries in the database out of roughly 1280 expected."
    assert levels(count_problems("queries", 2000, 1280)) == [WARN]


def test_per_row_updates_need_an_update_per_row():
    assert update_count_problems("per-row", 64, 20, 1280, 1280) == []
    problems = update_count_problems("per-row", 64, 20, 64, 1280)
    assert levels(problems) == [FAIL] and '64 UPDATE executions for 1280 rows' in problems[0].message


def test_batched_updates_need_about_one_update_per_request():
    assert update_count_problems("batched", 64, 20, 64, 1250) == []  # repeated ids change fewer rows
    (claim,) = update_count_problems("batched", 64, 20, 1280, 1280)
    assert claim.level == FAIL and 'says "batched" (one UPDATE per request)' in claim.message
    assert "Only 32 rows updated" in update_count_problems("batched", 64, 20, 64, 32)[0].message


def test_an_update_style_the_manifest_does_not_state_fails():
    assert "fairness.updates is None" in update_count_problems(None, 1, 1, 1, 1)[0].message


# --- rows changed (verify_updates) -----------------------------------------------------------------------------

def test_updates_must_change_nine_in_ten_rows_they_claim():
    before = {i: 1 for i in range(1, 101)}
    assert changed_problems(before, {i: 2 for i in before}, before) == []
    assert [p.message for p in changed_problems(before, before, before)] == ["No items were updated in the database."]
    half = {i: (2 if i <= 50 else 1) for i in before}
    assert "Only 50 items were updated" in changed_problems(before, half, before)[0].message
    most = {i: (2 if i <= 93 else 1) for i in before}
    assert levels(changed_problems(before, most, before)) == [WARN]


# --- fortunes ---------------------------------------------------------------------------------------------------

def test_the_expected_table_escapes_sorts_by_code_point_and_adds_the_request_time_fortune():
    ids = [int(i) for i in re.findall(r"<tr><td>(\d+)</td>", TABLE)]
    assert ids == [11, 4, 5, 2, 8, 0, 3, 7, 10, 6, 9, 1, 12]
    assert "<td>&lt;script&gt;alert(&quot;This should not" in TABLE
    assert f"<td>{EXTRA_FORTUNE[1]}</td>" in TABLE and "<td>フレームワークのベンチマーク</td>" in TABLE


def test_whitespace_between_tags_and_quote_forms_are_free():
    loose = TABLE.replace("<tr>", "\n  <tr>").replace("&quot;", "&#34;").replace("&#x27;", "&#39;")
    assert normalise(loose) == normalise(TABLE)
    bare_quotes = TABLE.replace("&quot;", '"').replace("&#x27;", "'").replace("<!DOCTYPE html>", "<!doctype html>")
    assert fortune_problems(bare_quotes.encode(), TABLE) == []


def test_unescaped_script_fails():
    raw = TABLE.replace(html.escape(FORTUNES[10][1]), FORTUNES[10][1])
    (problem,) = fortune_problems(raw.encode(), TABLE)
    assert problem.level == FAIL and "got '" in problem.message and "<script>" in problem.message


def test_unsorted_rows_fail_naming_the_order():
    table = fortunes_table(FORTUNES)
    rows_in = re.findall(r"<tr><td>.*?</tr>", table)
    by_id = table.replace("".join(rows_in), "".join(sorted(rows_in, key=lambda r: int(re.search(r"\d+", r)[0]))))
    (problem,) = fortune_problems(by_id.encode(), TABLE)
    assert "not sorted by message (by code point): ids in the order 0, 1, 2, 3" in problem.message


def test_japanese_must_be_utf8_text():
    as_references = TABLE.replace("フレームワークのベンチマーク", "".join(f"&#{ord(c)};" for c in "フレームワークのベンチマーク"))
    assert levels(fortune_problems(as_references.encode(), TABLE)) == [FAIL]
    assert "not UTF-8" in fortune_problems(TABLE.encode("utf-16"), TABLE)[0].message
    assert fortune_problems(b"", TABLE)[0].message == "Empty response"


def test_a_missing_row_fails():
    assert levels(fortune_problems(TABLE.replace("<tr><td>7</td>", "<tr><td>77</td>").encode(), TABLE)) == [FAIL]


def test_enforce_rule_names_the_rule_and_lets_warnings_pass():
    enforce_rule("query count", "GET /q", count_problems("queries", 2000, 1280))
    with pytest.raises(VerifyError, match=r"GET /q: rule 'query count' \(TechEmpower's verification\): Only 1"):
        enforce_rule("query count", "GET /q", count_problems("queries", 1, 1280))


# --- load targets -------------------------------------------------------------------------------------------------

def _ctx(path: str) -> Context:
    return Context("127.0.0.1", 1, path, None, None)


@pytest.mark.parametrize("n", [1, 5, 20, 100])
def test_rows_target_asks_for_n_rows_and_accepts_only_n(n):
    target = rows.target(_ctx("/queries"), "queries", n)
    assert target.path == f"/queries?queries={n}"
    body = json.dumps([{"id": i + 1, "randomNumber": 3} for i in range(n)])
    assert re.fullmatch(target.expect_body_regex, body)
    assert re.fullmatch(target.expect_body_regex, body.replace(" ", "") + "\n")
    assert not re.fullmatch(target.expect_body_regex, json.dumps([{"id": 1, "randomNumber": 3}] * (n + 1)))


def test_fortunes_target_accepts_the_table_and_refuses_it_unescaped_or_without_the_extra_fortune():
    regex = fortunes.target(_ctx("/fortunes")).expect_body_regex
    assert re.search(regex, TABLE) and re.search(regex, TABLE.replace("<tr>", "\n<tr>"))
    for lt, gt in (("&#60;", "&#62;"), ("&#x3C;", "&#x3e;")):  # askama's numeric escapes, and hex
        assert re.search(regex, TABLE.replace("&lt;", lt).replace("&gt;", gt))
    assert not re.search(regex, TABLE.replace(html.escape(FORTUNES[10][1]), FORTUNES[10][1]))
    assert not re.search(regex, fortunes_table(FORTUNES).replace(f"<td>{EXTRA_FORTUNE[1]}</td>", "<td>x</td>"))


# --- classifying pg_stat_statements entries -------------------------------------------------------------------

@pytest.mark.parametrize("sql, kind", [
    ("SELECT id, randomnumber FROM world WHERE id = $1", "select"),
    ('  select "world"."id" from "world" where "world"."id" = $1 limit $2', "select"),
    ("UPDATE world SET randomnumber = $1 WHERE id = $2", "update"),
    ("/* orm */ update world as w set randomnumber = v.r from (values ($1, $2)) v(i, r) where w.id = v.i", "update"),
    ("WITH rows AS (SELECT $1) UPDATE world SET randomnumber = 1", "update"),
    ("BEGIN", "other"),
])
def test_statement_kind(sql, kind):
    assert statement_kind(sql) == kind


# --- updates: rows written; cached: no query per request ---------------------------------------------------------

def test_updated_rows_must_be_in_the_table_as_answered():
    updates.written("GET /u", [(1, 5), (2, 6)], {1: 5, 2: 6})
    updates.written("GET /u", [(1, 5), (1, 7)], {1: 7})  # a repeated id: either number may be the last
    with pytest.raises(VerifyError, match=r"rule 'rows written': row 2 has randomNumber 9 in the database after "
                                          r"the request, the answer says \[6\]"):
        updates.written("GET /u", [(1, 5), (2, 6)], {1: 5, 2: 9})
    with pytest.raises(VerifyError, match="rule 'body shape': row 1 was given randomNumber 0"):
        updates.written("GET /u", [(1, 0)], {1: 0})


def test_cached_rows_come_from_the_cache_not_a_query_per_request():
    cached.from_cache("GET /c", cached.CACHE_FILLS - 1)  # a process filling its cache late may read once
    with pytest.raises(VerifyError, match="rule 'no query per request': pg_stat_statements counted 64 SELECT"):
        cached.from_cache("GET /c", 64)
