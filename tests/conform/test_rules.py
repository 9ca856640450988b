"""Grading rules on made-up observations, for the outcomes the fake servers do not reach."""

from webshootout.conform import rules, slowloris
from webshootout.conform.parse import Parsed, Response
from webshootout.conform.wire import Limits, Observation

LIMITS = Limits(slow_pass=30.0, slow_give_up=95.0)


def _answered(*statuses: int, closed: bool = False) -> Observation:
    return Observation(parsed=Parsed(finals=[Response(s, "1.1", (), b"Hello, World!") for s in statuses]),
                       closed=closed, seconds=0.001)


def _trickled(cut, second=None) -> slowloris.Trickled:
    return slowloris.Trickled(cut=cut, second=second if second is not None else _answered(200), limits=LIMITS)


def test_slowloris_cut_late_warns_never_cut_or_a_second_client_kept_waiting_fails():
    assert slowloris.grade(_trickled(12.0))[0] == "pass"
    assert slowloris.grade(_trickled(80.0))[0] == "warn"
    assert slowloris.grade(_trickled(None))[0] == "fail"
    assert slowloris.grade(_trickled(5.0, Observation(timed_out=True))) == (
        "fail", "a second client was not answered while the trickle went on")


def test_a_limit_that_hangs_fails_where_a_framing_probe_that_hangs_warns():
    hung = Observation(timed_out=True)
    assert rules.refused(hang="fail")(hung)[0] == "fail"
    assert rules.refused()(hung)[0] == "warn"
    assert rules.framed(hang="fail")(hung)[0] == "fail"


def test_a_framing_probe_answered_then_closed_or_refused_after_passes_and_read_on_is_bad():
    assert rules.framed()(_answered(200, closed=True))[0] == "pass"
    assert rules.framed()(_answered(200, 400, closed=True))[0] == "pass"
    assert rules.framed()(_answered(200, 200)) == (
        "bad", "accepted: answered 200, then the next request on the connection (200)")
    assert rules.framed()(_answered(200, 404))[0] == "bad"
    assert rules.framed()(_answered(400, 200))[0] == "warn"
    assert rules.framed()(_answered(200))[0] == "warn"  # waits on the body, or reads no pipelined request


def test_refusals_count_and_other_statuses_warn():
    assert rules.refused()(_answered(431, closed=True)) == ("pass", "refused: 431 and closed")
    assert rules.refused()(_answered(404))[0] == "warn"
    assert rules.refused()(_answered(204))[0] == "bad"


def test_a_pipeline_cut_short_by_an_announced_close_passes_and_unannounced_fails():
    closing = Response(200, "1.1", (("connection", "close"),), b"Hello, World!")
    assert rules.answered(count=2)(Observation(parsed=Parsed(finals=[closing]), closed=True))[0] == "pass"
    assert rules.answered(count=2)(_answered(200, closed=True))[0] == "bad"


def test_options_star_unanswered_fails_whatever_its_level():
    assert rules.any_answer(Observation(timed_out=True))[0] == "fail"
    assert rules.any_answer(_answered(405))[0] == "bad"
