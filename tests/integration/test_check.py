"""`check` against the real reference frameworks and against deliberately wrong fixtures."""

import pytest

from webshootout.commands import check
from webshootout.stacks.provision import MARKER

from .helpers import make_settings, no_leftovers, one_environment  # noqa: F401 - fixtures

pytestmark = pytest.mark.integration


def test_reference_frameworks_pass(root, capsys, no_leftovers, one_environment):
    code = check.run(make_settings(root, ("flask", "starlette")), stack=one_environment)
    out = capsys.readouterr().out
    assert code == 0, out
    for workload in ("plaintext", "json", "db", "session", "hash", "static"):
        assert f"flask {workload}: ok" in out and f"starlette {workload}: ok" in out
    assert "starlette websocket: ok" in out


@pytest.mark.parametrize("variant, expected", [
    ("fake-wrongbody", "fake-wrongbody plaintext: FAILED: GET /plaintext (#1): body 'Hello, World?', "
                       "expected 'Hello, World!'"),
    ("fake-wrongsession", "fake-wrongsession session: FAILED: GET /session as visitor B (new), request #1: "
                          "body 'Count is 4', expected 'Count is 1'"),
    ("fake-cachedhash", "fake-cachedhash hash: FAILED: GET /hash?n=1 after the harness rewrote HASH_FILE"),
    ("fake-closes", "fake-closes plaintext: FAILED: keep-alive: the manifest says \"on\" but 5 requests took 5 TCP "
                    "connections"),
])
def test_wrong_implementations_fail_precisely(fixture_root, capsys, no_leftovers, one_environment, variant,
                                               expected):
    code = check.run(make_settings(fixture_root, (variant,)), stack=one_environment)
    out = capsys.readouterr().out
    assert code == 1
    assert expected in out, out
    assert "server log (last lines)" in out


def test_good_fixture_passes_and_caches_setup(fixture_root, capsys, no_leftovers, one_environment):
    assert check.run(make_settings(fixture_root, ("fake",)), stack=one_environment) == 0
    assert (fixture_root / "frameworks" / "python" / "fake" / MARKER).exists()


def test_a_stack_that_closes_by_its_manifest_passes_and_says_so(fixture_root, capsys, no_leftovers,
                                                               one_environment):
    assert check.run(make_settings(fixture_root, ("fake-closesdeclared",)), stack=one_environment) == 0
    assert "fake-closesdeclared plaintext: ok (closes connections, as its manifest states)" in capsys.readouterr().out


def test_a_right_implementation_of_techempowers_database_types_passes(fixture_root, capsys, no_leftovers,
                                                                     one_environment):
    code = check.run(make_settings(fixture_root, ("fakedb",)), stack=one_environment)
    out = capsys.readouterr().out
    assert code == 0, out
    for workload in ("queries", "updates", "fortunes", "cached"):
        assert f"fakedb {workload}: ok" in out


@pytest.mark.parametrize("variant, expected", [
    ("fakedb-noescape", "fakedb-noescape fortunes: FAILED: GET /fortunes: rule 'fortunes table' (TechEmpower's "
                        "verification): Invalid according to FortuneHTMLParser: after normalising, the page "
                        "differs at character 125: got '<th>message</th></tr><tr><td>11</td><td><script>alert("),
    ("fakedb-unsorted", "fakedb-unsorted fortunes: FAILED: GET /fortunes: rule 'fortunes table' (TechEmpower's "
                        "verification): the rows are all there but not sorted by message (by code point): ids in "
                        "the order 0, 1, 2,"),
    ("fakedb-onequery", "fakedb-onequery queries: FAILED: 64 concurrent GET /queries?queries=20: rule 'query count' "
                        "(TechEmpower's verification): Only 64 executed SELECT queries on world in the database out "
                        "of roughly 1280 expected."),
    ("fakedb-noclamp", "fakedb-noclamp queries: FAILED: GET /queries?queries=501: rule 'count parameter': 501 rows, "
                       "expected 500"),
    ("fakedb-nowrite", "fakedb-nowrite updates: FAILED: GET /updates?queries=501: rule 'rows changed' "
                       "(TechEmpower's verification): No items were updated in the database."),
    ("fakedb-claimsbatched", "fakedb-claimsbatched updates: FAILED: 64 concurrent GET /updates?queries=20: rule "
                             "'update count' (TechEmpower's verification): 1280 UPDATE executions for 64 requests: "
                             "the manifest's fairness.updates says \"batched\""),
    ("fakedb-cachequeries", "fakedb-cachequeries cached: FAILED: 64 concurrent GET /cached-queries?count=20, after as "
                            "many to fill the cache: rule 'no query per request': pg_stat_statements counted 1280 "
                            "SELECT executions on world"),
])
def test_each_techempower_database_rule_fails_a_server_that_breaks_it(fixture_root, capsys, no_leftovers,
                                                                       one_environment, variant, expected):
    code = check.run(make_settings(fixture_root, (variant,)), stack=one_environment)
    out = capsys.readouterr().out
    assert code == 1
    assert expected in out, out
