"""TechEmpower's published verification rules for their database test types (multiple queries, updates,
fortunes, cached queries), ported like the plaintext, json and db rules in techempower.py.

Source: github.com/TechEmpower/FrameworkBenchmarks at the commit techempower.py names:
toolset/test_types/verifications.py (verify_query_cases, verify_randomnumber_list, verify_updates,
verify_queries_count, display_queries_count_result), the test types toolset/test_types/query/query.py,
update/update.py, cached-query/cached-query.py and fortune/fortune.py with fortune_html_parser.py
(FortuneHTMLParser). Departures from the letter of that code, each stricter or equal:
- the count cases: there `501` is a "warn" for queries and `foo` and the empty value only warn when the
  answer is empty; here every case must answer the contract's number of rows (docs/workloads.md);
- a top-level JSON object instead of an array is a "warn" there, a "fail" here (the contract says array),
  and the keys must be spelled `id` and `randomNumber` (there any case passes);
- their query count runs 512 concurrent requests once; here CONCURRENCY (concurrent.py says why), with their
  rule: no fewer executions or rows than requested, and for updates their bulk detection replaced by the
  manifest's claim (fairness.updates), held to the count it implies;
- their fortune parser silently drops character references it does not know, so `&#12501;` for a Japanese
  character fails there; here it is kept as written, and fails the comparison just the same.
Rules of our contract beside theirs live with the workloads (rows.py, updates.py, cached.py): rows match the
database, updates' rows written as answered, ids drawn at random, and no query per cached request.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from html import escape
from html.parser import HTMLParser

from .base import VerifyError
from .techempower import FAIL, WARN, Problem

MIN_ROWS, MAX_ROWS = 1, 500
# (query value, rows the answer must have): verify_query_cases' cases, and the parameter left out.
COUNT_CASES = (("2", 2), ("0", 1), ("foo", 1), ("", 1), ("501", 500), (None, 1))
UPDATED_SHARE = 0.90  # verify_updates: fewer changed rows than this share of those claimed fails
BATCHED_SLACK = 1.05  # their bulk margin: a batched UPDATE of repeated ids changes fewer rows than ids
EXTRA_FORTUNE = (0, "Additional fortune added at request time.")


def expected_rows(value: str | None) -> int:
    """The contract's row count for a `queries`/`count` value: not an integer or below 1 -> 1, above 500 -> 500."""
    try:
        number = int(value) if value is not None else MIN_ROWS
    except ValueError:
        return MIN_ROWS
    return min(MAX_ROWS, max(MIN_ROWS, number))


def count_problems(caption: str, found: int, requested: int, slack: float = 1.0) -> list[Problem]:
    """display_queries_count_result: fewer than requested (`found` x `slack`) fails; over 5 % more warns."""
    if found * slack < requested:
        return [Problem(FAIL, f"Only {found} {caption} in the database out of roughly {requested} expected.")]
    if found > requested * 1.05:
        return [Problem(WARN, f"{found} {caption} in the database instead of {requested} expected. "
                              "This number is excessively high.")]
    return []


def update_count_problems(style: str | None, requests: int, rows: int, updates: int,
                          rows_updated: int) -> list[Problem]:
    """verify_queries_count's update part, for `requests` requests of `rows` rows each: a per-row stack runs an
    UPDATE per row; a batched one about one per request, whose repeated ids may change fewer rows."""
    wanted = requests * rows
    if style == "batched":
        found = [] if requests <= updates <= requests * BATCHED_SLACK else [Problem(
            FAIL, f"{updates} UPDATE executions for {requests} requests: the manifest's fairness.updates says "
                  f"\"batched\" (one UPDATE per request)")]
        return found + count_problems("rows updated", rows_updated, wanted, slack=BATCHED_SLACK)
    if style != "per-row":
        return [Problem(FAIL, f"fairness.updates is {style!r}: the manifest must say \"per-row\" or \"batched\"")]
    found = [] if updates >= wanted else [Problem(
        FAIL, f"{updates} UPDATE executions for {wanted} rows: the manifest's fairness.updates says \"per-row\" "
              f"(one UPDATE per row)")]
    return found + count_problems("rows updated", rows_updated, wanted)


def changed_problems(before: dict[int, int], after: dict[int, int], claimed: Iterable[int]) -> list[Problem]:
    """verify_updates: of the rows an answer claims to have updated, at least 90 % differ in the table after
    (a new random number equals the old one once in 10,000)."""
    ids = set(claimed)
    changed = sum(1 for ident in ids if before.get(ident) != after.get(ident))
    if changed == 0:
        return [Problem(FAIL, "No items were updated in the database.")]
    if changed <= len(ids) * UPDATED_SHARE:
        return [Problem(FAIL, f"Only {changed} items were updated in the database out of roughly {len(ids)} "
                              "expected.")]
    if changed <= len(ids) * 0.95:
        return [Problem(WARN, f"There may have been an error updating the database. Only {changed} items were "
                              f"updated in the database out of the roughly {len(ids)} expected.")]
    return []


# -- fortunes -----------------------------------------------------------------------------------------------

# Character references FortuneHTMLParser accepts in place of the character, and the form both sides are
# compared in; any other reference stays as written.
_REFERENCES = {"34": "&quot;", "x22": "&quot;", "quot": "&quot;", "39": "&apos;", "x27": "&apos;",
               "apos": "&apos;", "43": "+", "x2b": "+", "60": "&lt;", "x3c": "&lt;", "lt": "&lt;",
               "62": "&gt;", "x3e": "&gt;", "gt": "&gt;", "47": "/", "x2f": "/", "40": "(", "x28": "(",
               "41": ")", "x29": ")", "amp": "&amp;", "mdash": "\u2014"}


class _Normaliser(HTMLParser):
    """The document as FortuneHTMLParser rebuilds it: tags lower-case without attributes, whitespace between
    tags dropped, quotes and apostrophes in text as `&quot;` and `&apos;`, the references above unified."""

    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.parts: list[str] = []

    def handle_decl(self, decl):
        self.parts.append(f"<!{decl.lower()}>")

    def handle_starttag(self, tag, attrs):
        self.parts.append(f"<{tag}>")

    def handle_endtag(self, tag):
        self.parts.append(f"</{tag}>")

    def handle_data(self, data):
        if data.strip():
            self.parts.append(data.replace("'", "&apos;").replace('"', "&quot;"))

    def handle_charref(self, name):
        key = name.lower().lstrip("0") if not name.lower().startswith("x") else name.lower()
        self.parts.append(_REFERENCES.get(key, f"&#{name};"))

    def handle_entityref(self, name):
        self.parts.append(_REFERENCES.get(name, f"&{name};"))


def normalise(html: str) -> str:
    parser = _Normaliser()
    parser.feed(html)
    parser.close()
    return "".join(parser.parts)


def fortunes_table(rows: Iterable[tuple[int, str]]) -> str:
    """TechEmpower's fortunes page for the table's rows: the extra fortune added, sorted by message (by code
    point), each message escaped."""
    ordered = sorted([*rows, EXTRA_FORTUNE], key=lambda row: row[1])
    cells = "".join(f"<tr><td>{ident}</td><td>{escape(message)}</td></tr>" for ident, message in ordered)
    return ("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table>"
            f"<tr><th>id</th><th>message</th></tr>{cells}</table></body></html>")


def fortune_problems(body: bytes, expected: str) -> list[Problem]:
    """fortune.TestType.verify's comparison: the answer, normalised, equals the expected table, normalised;
    the first difference is named (their diff, shortened to where it starts)."""
    if not body:
        return [Problem(FAIL, "Empty response")]
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError as exc:
        return [Problem(FAIL, f"the body is not UTF-8: {exc}")]
    got, wanted = normalise(text), normalise(expected)
    if got == wanted:
        return []
    got_rows, wanted_rows = re.findall(r"<tr><td>.*?</tr>", got), re.findall(r"<tr><td>.*?</tr>", wanted)
    if got_rows != wanted_rows and sorted(got_rows) == sorted(wanted_rows):
        order = [re.match(r"<tr><td>(.*?)</td>", row)[1] for row in got_rows]
        return [Problem(FAIL, f"the rows are all there but not sorted by message (by code point): ids in the "
                              f"order {', '.join(order)}")]
    at = next((i for i, (a, b) in enumerate(zip(got, wanted)) if a != b), min(len(got), len(wanted)))
    start = max(0, at - 40)
    return [Problem(FAIL, f"Invalid according to FortuneHTMLParser: after normalising, the page differs at "
                          f"character {at}: got {got[start:at + 60]!r}, expected {wanted[start:at + 60]!r}")]


def enforce_rule(rule: str, request: str, found: list[Problem]) -> None:
    """Raises VerifyError naming `rule` and its "fail" problems; warnings alone pass, as they do there."""
    failures = [p.message for p in found if p.level == FAIL]
    if failures:
        raise VerifyError(request, f"rule '{rule}' (TechEmpower's verification): " + " ".join(failures))
