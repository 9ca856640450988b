"""settle: a server working off a queue gets more time, one that sits idle fails at once."""

from types import SimpleNamespace

import pytest

from webshootout.server import settle as settling
from webshootout.system import httpget


class _Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _server():
    group = SimpleNamespace(seconds=0.0)
    group.cpu_seconds = lambda: group.seconds
    srv = SimpleNamespace(origin="http://127.0.0.1:1", variant=SimpleNamespace(id="slow", start=SimpleNamespace(ready="/r")),
                          ca=None, running=SimpleNamespace(group=group))
    return srv, group


@pytest.fixture
def answers(monkeypatch):
    """Replaces the GET: each call takes one SETTLE_TIMEOUT and fails, until the answer at index `ok`."""
    state = SimpleNamespace(calls=0, ok=None, clock=_Clock(), group=None, cpu=0.0)

    def get(url, timeout, ca=None):
        state.calls += 1
        if state.calls == state.ok:
            return 200, b""
        state.clock.now += timeout
        state.group.seconds += state.cpu * timeout
        raise httpget.GetError(f"GET {url}: not complete after {timeout:g} s")

    monkeypatch.setattr(settling.httpget, "get", get)
    return state


def test_a_busy_server_gets_another_wait_and_settles(answers, capsys):
    srv, answers.group = _server()
    answers.cpu, answers.ok = 0.95, 3
    assert settling.settle(srv, answers.clock) is None
    assert answers.calls == 3 and "still working off the load's queue 120 s after it (95% of a CPU)" in capsys.readouterr().err


def test_an_idle_server_fails_after_one_wait_naming_its_cpu(answers):
    srv, answers.group = _server()
    answers.cpu = 0.02
    reason = settling.settle(srv, answers.clock)
    assert answers.calls == 1 and reason.startswith("after the load: GET") and "2% of a CPU" in reason


def test_a_busy_server_that_never_answers_fails_at_the_cap(answers):
    srv, answers.group = _server()
    answers.cpu = 1.0
    reason = settling.settle(srv, answers.clock)
    assert answers.calls == settling.SETTLE_MAX / settling.SETTLE_TIMEOUT and "100% of a CPU" in reason
