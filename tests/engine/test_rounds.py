"""Interleaved rounds (engine/rounds.py) with the fake harness and driver: order, warm servers, resume."""

from collections import Counter

from fakes import FakeDriver, FakeStack
from integration.helpers import make_settings
from schemas import assert_valid_lines
from webshootout.commands import run
from webshootout.engine import rounds
from webshootout.results.rundir import RunDir

IDS = ("flask", "starlette", "fastapi")
WORKLOADS = ("plaintext", "json")


def _run(root, tmp_path, driver=None, trials=3, **kw):
    tmp_path.mkdir(exist_ok=True)
    settings = make_settings(root, IDS, out=tmp_path, workloads=WORKLOADS, trials=trials, warmup=0.0, **kw)
    stack = FakeStack()
    code = run.run(settings, ["run"], driver=driver or FakeDriver(), stack=stack)
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    return code, RunDir(run_dir), stack


def _trials(rundir):
    return [line for line in rundir.lines() if line["kind"] == "trial"]


def test_a_round_is_every_row_once_in_an_order_the_seed_fixes():
    keys = [(f, w, "c=16") for f in IDS for w in WORKLOADS]
    orders = [rounds.round_order(keys, 7, "adhoc", n) for n in range(1, 61)]
    assert all(sorted(order) == sorted(keys) for order in orders)
    assert orders == [rounds.round_order(list(reversed(keys)), 7, "adhoc", n) for n in range(1, 61)]
    assert rounds.round_order(keys, 8, "adhoc", 1) != orders[0] or rounds.round_order(keys, 8, "adhoc", 2) != orders[1]
    # Balanced over many rounds: no row is always first or always last.
    first, last = Counter(o[0] for o in orders), Counter(o[-1] for o in orders)
    assert len(first) == len(keys) and len(last) == len(keys) and max(first.values()) < 25


def test_every_server_stays_up_and_trial_n_of_every_row_runs_before_any_trial_n_plus_1(root, tmp_path):
    code, rundir, stack = _run(root, tmp_path)
    assert code == 0
    assert_valid_lines(rundir.lines())
    kinds = [e[0] for e in stack.events if e[0] in ("start", "stop")]
    assert kinds == ["start"] * len(IDS) + ["stop"] * len(IDS)
    trials = _trials(rundir)
    assert [t["trial"] for t in trials] == sorted(t["trial"] for t in trials)
    seed = rundir.read_meta()["sessions"][0]["interleave_seed"]
    rows = [(t["framework"], t["workload"], t["point"]) for t in trials]
    per_round = len(IDS) * len(WORKLOADS)
    for n in (1, 2, 3):
        due = rows[(n - 1) * per_round:n * per_round]
        assert due == rounds.round_order(due, seed, "adhoc", n), "the recorded seed gives the order run"
    # Each trial records what the two servers kept up beside it used (the fake's 0.5 % each).
    assert {t["idle_cpu_percent"] for t in trials} == {1.0}


def test_no_interleave_keeps_one_server_at_a_time_and_its_trials_back_to_back(root, tmp_path):
    _, rundir, stack = _run(root, tmp_path, interleave=False)
    kinds = [e for e in stack.events if e[0] in ("start", "stop")]
    assert kinds == [(k, f) for f in IDS for k in ("start", "stop")]
    trials = _trials(rundir)
    assert [t["framework"] for t in trials] == [f for f in IDS for _ in range(len(WORKLOADS) * 3)]
    assert {t["idle_cpu_percent"] for t in trials} == {None}
    assert rundir.read_meta()["sessions"][0]["interleave_seed"] is None


def test_an_interrupted_interleaved_run_keeps_its_trials_and_resume_finishes_the_rounds(root, tmp_path):
    code, rundir, _ = _run(root, tmp_path, driver=FakeDriver(interrupt_at=8))
    assert code == 130 and len(_trials(rundir)) == 7
    settings = make_settings(root, IDS, workloads=WORKLOADS, trials=3, warmup=0.0, resume=rundir.path)
    second = FakeDriver()
    assert run.run(settings, ["run"], driver=second, stack=FakeStack()) == 0
    trials = _trials(rundir)
    assert len(second.specs) == 18 - 7
    assert Counter((t["framework"], t["workload"], t["trial"]) for t in trials) == \
        Counter({(f, w, n): 1 for f in IDS for w in WORKLOADS for n in (1, 2, 3)})
    first, then = (s["interleave_seed"] for s in rundir.read_meta()["sessions"])
    assert isinstance(first, int) and isinstance(then, int)


def test_a_server_that_dies_drops_out_of_the_rounds_and_the_others_go_on(root, tmp_path):
    tmp_path.mkdir(exist_ok=True)
    settings = make_settings(root, IDS, out=tmp_path, workloads=WORKLOADS, trials=2, warmup=0.0)
    stack = FakeStack(dies={"fastapi"}, leaks={"starlette"})
    assert run.run(settings, ["run"], driver=FakeDriver(), stack=stack) == 0
    (run_dir,) = list(tmp_path.iterdir())
    lines = RunDir(run_dir).lines()
    faults = {(f["framework"], f["stage"]) for f in lines if f["kind"] == "fault"}
    assert faults == {("fastapi", "trial"), ("starlette", "stop")}
    measured = Counter(t["framework"] for t in lines if t["kind"] == "trial")
    assert measured == {"flask": 4, "starlette": 4}
    assert [e for e in stack.events if e[0] == "stop"].count(("stop", "fastapi")) == 1
