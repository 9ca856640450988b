"""The ETA: trials priced by what their kind cost so far, in this run or the previous one, and said unsure."""

import json
from collections import Counter

from webshootout.engine import eta
from webshootout.engine.eta import Eta, Kind
from results.test_results import TRIAL

PLAIN, PLAIN_FIRST = Kind("plaintext", 360, False), Kind("plaintext", 360, True)
WS, WS_FIRST = Kind("websocket-10k", 10_000, False), Kind("websocket-10k", 10_000, True)


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _finish(estimator, clock, kind, seconds):
    clock.now += seconds
    estimator.finished(kind)


def test_each_kind_is_priced_by_what_it_cost_and_unmeasured_kinds_make_it_unsure():
    clock = Clock()
    estimator = Eta(Counter({PLAIN_FIRST: 2, PLAIN: 4, WS_FIRST: 2, WS: 4}), 6.7, clock=clock)
    _finish(estimator, clock, PLAIN_FIRST, 40.0)
    _finish(estimator, clock, PLAIN, 7.0)
    _finish(estimator, clock, PLAIN, 9.0)
    found = estimator.estimate()
    # 1 first at 40 s and 2 more at 8 s each, then the WebSocket trials at the guess, which it says.
    assert found.seconds == 40.0 + 2 * 8.0 + 6 * 6.7
    assert "6.7" not in found.text() and "4 trials of websocket-10k at 10,000 connections not measured yet" in found.unsure
    _finish(estimator, clock, PLAIN_FIRST, 44.0)
    _finish(estimator, clock, PLAIN, 8.0)
    _finish(estimator, clock, PLAIN, 8.0)
    for seconds in (90.0, 95.0):
        _finish(estimator, clock, WS_FIRST, seconds)
    for seconds in (45.0, 50.0):
        _finish(estimator, clock, WS, seconds)
    done = estimator.estimate()
    assert done.seconds == 2 * 47.5 and done.unsure is None, done
    assert done.text() == "~95s left"


def test_the_previous_run_prices_what_this_one_has_not_measured_yet():
    previous = {WS: [40.0, 44.0, 42.0], WS_FIRST: [120.0, 100.0]}
    found = Eta(Counter({WS_FIRST: 1, WS: 2}), 6.7, previous, clock=Clock()).estimate()
    assert found.seconds == 110.0 + 2 * 42.0 and found.unsure is None
    lone = Eta(Counter({WS: 2}), 6.7, {WS: [40.0]}, clock=Clock()).estimate()
    assert "1 trial measured in the previous run, 40-40s each" in lone.unsure


def test_costs_that_spread_widely_are_unsure():
    clock = Clock()
    estimator = Eta(Counter({PLAIN: 4}), 6.7, clock=clock)
    _finish(estimator, clock, PLAIN, 5.0)
    _finish(estimator, clock, PLAIN, 60.0)
    assert "2 trials measured, 5-60s each" in estimator.estimate().unsure


def test_a_trial_planned_under_the_other_first_or_a_bare_count_is_taken_from_there():
    clock = Clock()
    estimator = Eta(Counter({PLAIN_FIRST: 1}), 6.7, clock=clock)
    _finish(estimator, clock, PLAIN, 5.0)  # the point had no warm-up
    assert estimator.estimate().seconds == 0.0
    counted = Eta(Counter({eta.ANY: 3}), 6.7, clock=clock)
    assert counted.estimate().unsure == "no trial measured yet"
    _finish(counted, clock, PLAIN, 10.0)
    assert counted.estimate().seconds == 20.0
    assert counted.estimate().unsure == "trials: 1 trial measured, 10-10s each"


def _trial(part, connections, framework, point, time, session=0):
    """A whole trial line (a run directory's lines are checked where they are read)."""
    return {**TRIAL, "part": part, "connections": connections, "framework": framework, "workload": "w",
            "point": point, "trial": 1, "session": session, "time": time}


def test_costs_of_a_finished_run_come_from_its_line_times(tmp_path):
    lines = [_trial("ws", 10_000, "a", "c=10000", "2026-11-25T10:00:00+00:00"),
             _trial("ws", 10_000, "a", "c=10000", "2026-11-25T10:00:40+00:00"),
             _trial("ws", 10_000, "b", "c=10000", "2026-11-25T10:02:10+00:00"),
             _trial("ws", 10_000, "b", "c=10000", "2026-11-25T10:03:00+00:00", session=1)]
    later, first = Kind("ws", 10_000, False), Kind("ws", 10_000, True)
    assert eta.costs_of(lines) == {later: [40.0], first: [90.0]}, "a session's first line has no cost"
    runs = tmp_path / "runs"
    for name, written in (("20261124T100000Z-hello", lines), ("20261125T100000Z-hello-compiled-2", lines[:2]),
                          ("20261126T100000Z-hello-compiled", [])):
        (runs / name).mkdir(parents=True)
        (runs / name / "results.jsonl").write_text("".join(json.dumps({"schema": 1, **line}) + "\n" for line in written))
    current = runs / "20261126T100000Z-hello-compiled"
    assert eta.previous_costs(runs, "hello-compiled", current) == {later: [40.0]}, "the newest of the same suite"
    assert eta.previous_costs(runs, "quick", current) == {}
