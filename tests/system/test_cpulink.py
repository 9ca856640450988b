"""The CPU link: waiting for the server and load CPUs to be near before a trial, and what a trial records."""

import json

import pytest

from fakes import FakeStack
from commands.test_run_loop import _run, _trials
from schemas import assert_valid_lines
from webshootout.system import cpulink


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.now += seconds


def _link(round_trips: list[float], clock: Clock | None = None) -> cpulink.Link:
    """A link whose probe answers these round trips in turn, then the last one for ever."""
    answers = iter(round_trips)
    last = [round_trips[0]]

    def probe() -> float:
        last[0] = next(answers, last[0])
        return last[0]

    clock = clock or Clock()
    return cpulink.Link(probe, clock, clock.sleep)


def test_a_near_link_does_not_wait():
    said = []
    link = _link([100.0, 110.0])
    link.probe()
    assert link.wait_near(said.append) == (110.0, 0.0) and said == []


def test_a_far_link_is_waited_out_and_the_wait_recorded():
    said, clock = [], Clock()
    link = _link([100.0, 450.0, 460.0, 440.0, 105.0], clock)
    link.probe()
    ns, waited = link.wait_near(said.append)
    assert ns == 105.0 and waited == pytest.approx(3 * cpulink.POLL)
    assert "450 ns" in said[0] and "best 100 ns" in said[0] and "near again" in said[-1]
    measured = link.after(ns, waited)
    assert not measured.far and measured.to_dict() == {"before_ns": 105.0, "after_ns": 105.0, "best_ns": 100.0,
                                                      "waited_s": 0.75}


def test_a_link_that_stays_far_is_measured_anyway_at_the_cap_and_flagged():
    said, clock = [], Clock()
    link = _link([100.0, 450.0], clock)
    link.probe()
    ns, waited = link.wait_near(said.append)
    assert ns == 450.0 and cpulink.WAIT_CAP <= waited < cpulink.WAIT_CAP + cpulink.POLL
    assert "still far" in said[-1] and link.after(ns, waited).far


def test_a_trial_that_ends_far_is_flagged():
    link = _link([100.0, 100.0, 300.0])
    link.probe()
    before, waited = link.wait_near(lambda _: None)
    measured = link.after(before, waited)
    assert (measured.before_ns, measured.after_ns, measured.far) == (100.0, 300.0, True)


def test_the_probe_says_what_went_wrong(tmp_path):
    with pytest.raises(cpulink.LinkError, match="missing"):
        cpulink.probe_with(tmp_path / "missing", 0, 1)()
    script = tmp_path / "probe"
    script.write_text("#!/bin/sh\necho 'not json'\n")
    script.chmod(0o755)
    with pytest.raises(cpulink.LinkError, match="not a round trip"):
        cpulink.probe_with(script, 0, 1)()
    script.write_text("#!/bin/sh\necho 'shootout-cpulink: cannot run on CPU 1' >&2\nexit 2\n")
    with pytest.raises(cpulink.LinkError, match="cannot run on CPU 1"):
        cpulink.probe_with(script, 0, 1)()


def test_trials_record_the_link_and_the_far_ones_are_flagged(root, tmp_path):
    # Per trial: before, after. The second trial ends far; the third starts near again.
    link = _link([100.0, 100.0, 100.0, 400.0, 100.0, 100.0])
    _, rundir, _, _ = _run(root, tmp_path, stack=FakeStack(link=link), frameworks=("flask",),
                           workloads=("plaintext",))
    lines = rundir.lines()
    assert_valid_lines(lines)
    trials = sorted(_trials(rundir), key=lambda t: t["trial"])
    assert [t["cpu_link"]["after_ns"] for t in trials] == [100.0, 400.0, 100.0]
    assert ["cpus-far" in t["flags"] for t in trials] == [False, True, False]
    (row,) = json.loads((rundir.path / "summary.json").read_text())["workloads"][0]["points"][0]["results"]
    assert "cpus-far" in row["flags"] and "cpus-far:" in (rundir.path / "report.md").read_text()


def test_without_a_link_trials_say_so(root, tmp_path):
    _, rundir, _, _ = _run(root, tmp_path, frameworks=("flask",), workloads=("plaintext",))
    assert all(t["cpu_link"] is None for t in _trials(rundir))


def test_the_harness_measures_the_link_only_between_cpus_of_their_own_on_this_machine(monkeypatch):
    from webshootout import harness
    from webshootout.load import native

    assert harness.cpu_link((0,), (0,), None) is None  # one CPU for both roles: nothing to measure
    assert harness.cpu_link((0,), (1,), object()) is None  # a hosts file: the load runs elsewhere
    monkeypatch.setenv(native.BINARY_ENV, "/nonexistent/shootout-load")
    assert harness.cpu_link((0,), (1,), None) is None  # not built: said, and the run goes on


def test_the_real_probe_measures_a_round_trip_between_two_cpus():
    import os

    from load.test_native_driver import _built

    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: no link to measure")
    probe = cpulink.probe_with(_built().with_name("shootout-cpulink"), *sorted(os.sched_getaffinity(0))[:2])
    ns = probe()
    # A cache line crosses between two cores in tens to hundreds of nanoseconds, never microseconds.
    assert 1 < ns < 5000


def test_a_run_that_starts_far_probes_for_near_before_its_first_trial():
    said, clock = [], Clock()
    link = _link([480.0, 470.0, 95.0, 500.0], clock)
    link.calibrate(said.append)
    assert link.best == 95.0 and clock.now == pytest.approx(2 * cpulink.POLL) and "480 ns" in said[0]
    stays_far = _link([480.0], Clock())
    stays_far.calibrate(lambda _: None)
    assert stays_far.best == 480.0  # never near: the run goes on with what it saw


def test_reports_judge_every_trial_against_the_runs_best():
    def trial(before, after, flags=()):
        return {"flags": list(flags), "cpu_link": {"before_ns": before, "after_ns": after, "best_ns": before,
                                                   "waited_s": 0.0}}

    # The run started far (the harness took 480 ns for near) and found near later.
    trials = [trial(480.0, 470.0), trial(480.0, 96.0), trial(95.0, 97.0), {"flags": [], "cpu_link": None},
              trial(95.0, 400.0, ["cpus-far"])]
    assert [t["flags"] for t in cpulink.judged(trials)] == [["cpus-far"], ["cpus-far"], [], [], ["cpus-far"]]
    assert cpulink.judged(trials[3:4]) == trials[3:4]
