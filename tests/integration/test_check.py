"""`check` against the real reference frameworks and against deliberately wrong fixtures."""

import pytest

from webshootout.commands import check
from webshootout.stacks.provision import MARKER

from .helpers import make_settings

pytestmark = pytest.mark.integration


def test_reference_frameworks_pass(root, capsys, no_leftovers):
    code = check.run(make_settings(root, ("flask", "starlette")))
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
def test_wrong_implementations_fail_precisely(fixture_root, capsys, no_leftovers, variant, expected):
    code = check.run(make_settings(fixture_root, (variant,)))
    out = capsys.readouterr().out
    assert code == 1
    assert expected in out, out
    assert "server log (last lines)" in out


def test_good_fixture_passes_and_caches_setup(fixture_root, capsys, no_leftovers):
    assert check.run(make_settings(fixture_root, ("fake",))) == 0
    assert (fixture_root / "frameworks" / "python" / "fake" / MARKER).exists()


def test_a_stack_that_closes_by_its_manifest_passes_and_says_so(fixture_root, capsys, no_leftovers):
    assert check.run(make_settings(fixture_root, ("fake-closesdeclared",))) == 0
    assert "fake-closesdeclared plaintext: ok (closes connections, as its manifest states)" in capsys.readouterr().out
