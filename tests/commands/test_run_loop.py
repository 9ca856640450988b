"""The run loop with the fake harness and driver: trials, resume, flags, faults and reports, no processes."""

import json
import statistics

from fakes import FakeDatabase, FakeDriver, FakeSpeed, FakeStack
from integration.helpers import make_settings
from schemas import assert_valid_lines
from webshootout.commands import check, run
from webshootout.engine import context, eta
from webshootout.stacks import catalog
from webshootout.config.profiles import Profile
from webshootout.results.rundir import RunDir

IDS = ("flask", "starlette")
WORKLOADS = ("plaintext", "json")


def _run(root, tmp_path, driver=None, stack=None, **kw):
    tmp_path.mkdir(exist_ok=True)
    settings = make_settings(root, kw.pop("frameworks", IDS), out=tmp_path, workloads=kw.pop("workloads", WORKLOADS),
                             trials=kw.pop("trials", 3), warmup=kw.pop("warmup", 0.0),
                             driver=kw.pop("driver_name", "native"), **kw)
    driver, stack = driver or FakeDriver(), stack or FakeStack()
    code = run.run(settings, ["run"], driver=driver, stack=stack)
    (run_dir,) = [p for p in tmp_path.iterdir() if p.is_dir()]
    return code, RunDir(run_dir), driver, stack


def _trials(rundir: RunDir) -> list[dict]:
    return [line for line in rundir.lines() if line["kind"] == "trial"]


def test_every_trial_is_recorded_with_its_point_and_reports_are_written(root, tmp_path, capsys):
    code, rundir, driver, _ = _run(root, tmp_path)
    assert code == 0
    lines = rundir.lines()
    assert_valid_lines(lines)
    trials = _trials(rundir)
    assert len(trials) == len(IDS) * len(WORKLOADS) * 3 == len(driver.specs)
    assert {(t["framework"], t["workload"], t["point"], t["part"]) for t in trials} == \
        {(f, w, "c=16", "adhoc") for f in IDS for w in WORKLOADS}
    assert all(t["flags"] == ["client-bound"] or t["flags"] == [] for t in trials)
    assert all(set(t["steal_percent"]) == {"server", "load"} for t in trials)  # read from this machine
    assert {p.name for p in rundir.path.iterdir()} >= {"report.html", "report.md", "summary.json", "meta.json"}
    summary = json.loads((rundir.path / "summary.json").read_text())
    assert summary and "== plaintext ==" in capsys.readouterr().out


def test_resume_runs_only_the_missing_trials(root, tmp_path):
    _, rundir, first, _ = _run(root, tmp_path, trials=1)
    assert len(first.specs) == 4
    settings = make_settings(root, IDS, workloads=WORKLOADS, trials=3, warmup=0.0, resume=rundir.path)
    second = FakeDriver()
    assert run.run(settings, ["run"], driver=second, stack=FakeStack()) == 0
    assert len(second.specs) == 8
    keys = [(t["framework"], t["workload"], t["trial"]) for t in _trials(rundir)]
    assert sorted(keys) == sorted({(f, w, n) for f in IDS for w in WORKLOADS for n in (1, 2, 3)})
    sessions = rundir.read_meta()["sessions"]
    assert len(sessions) == 2 and all(s["git_commit"] and s["tools"] for s in sessions)
    assert {(t["trial"] > 1, t["session"]) for t in _trials(rundir)} == {(False, 0), (True, 1)}


def test_interrupt_keeps_finished_trials_and_resume_completes_them(root, tmp_path):
    code, rundir, _, _ = _run(root, tmp_path, driver=FakeDriver(interrupt_at=3))
    assert code == 130 and len(_trials(rundir)) == 2
    settings = make_settings(root, IDS, workloads=WORKLOADS, trials=3, warmup=0.0, resume=rundir.path)
    assert run.run(settings, ["run"], driver=FakeDriver(), stack=FakeStack()) == 0
    assert len(_trials(rundir)) == 12 and len({(t["framework"], t["workload"], t["trial"])
                                                for t in _trials(rundir)}) == 12


def test_flags_follow_the_result(root, tmp_path):
    _, rundir, _, _ = _run(root, tmp_path, driver=FakeDriver(errors=5, client_cpu_s=0.95), frameworks=("flask",),
                           workloads=("plaintext",), trials=1)
    (trial,) = _trials(rundir)
    assert trial["flags"] == ["client-bound", "errors"] and trial["client_cpu_percent"] == 95.0


def test_the_server_cpu_is_that_of_the_measured_window_where_the_driver_knows_it(root, tmp_path):
    one = {"frameworks": ("flask",), "workloads": ("plaintext",), "trials": 1}
    _, rundir, _, _ = _run(root, tmp_path / "whole", **one)
    assert [t["server_cpu_percent"] for t in _trials(rundir)] == [97.0]
    _, rundir, _, _ = _run(root, tmp_path / "window", driver=FakeDriver(window=(10.0, 13.0)), **one)
    (trial,) = _trials(rundir)
    assert trial["server_cpu_percent"] == 99.0 and "window" not in trial


def test_a_trial_through_which_the_jit_compiled_becomes_warm_up_and_runs_again(root, tmp_path):
    stack = FakeStack(compiling=[30.0, 4.0, 0.5, 0.2, 1.5, 0.3])
    _, rundir, driver, _ = _run(root, tmp_path, driver=FakeDriver(window=(10.0, 13.0)), stack=stack,
                                frameworks=("flask",), workloads=("plaintext",))
    assert len(driver.specs) == 6
    trials = _trials(rundir)
    assert_valid_lines(rundir.lines())
    assert [(t["jit_reruns"], t["jit_cpu_percent"], t["flags"]) for t in trials] == \
        [(2, 0.5, []), (0, 0.2, []), (1, 0.3, [])]
    # The discarded runs' windows (the fake reports no warm-up of its own) are the kept one's warm-up.
    seconds = trials[0]["duration_s"]
    assert (trials[0]["warmup_s"], trials[1]["warmup_s"], trials[2]["warmup_s"]) == (2 * seconds, None, seconds)


def test_a_jit_that_never_stops_compiling_is_flagged_after_the_last_rerun(root, tmp_path):
    stack = FakeStack(compiling=[20.0] * (context.JIT_RERUNS + 1))
    _, rundir, driver, _ = _run(root, tmp_path, stack=stack, frameworks=("flask",), workloads=("plaintext",),
                                trials=1)
    (trial,) = _trials(rundir)
    assert len(driver.specs) == context.JIT_RERUNS + 1
    assert trial["jit_reruns"] == context.JIT_RERUNS and trial["flags"] == ["jit-compiling"]


def test_a_stack_that_cannot_pipeline_is_flagged_as_such(root, tmp_path):
    # One answer per batch of 16, the other 15 timed out.
    _, rundir, _, _ = _run(root, tmp_path, driver=FakeDriver(rps=10.0, errors=15 * 50, error_kind="timeout"),
                           frameworks=("flask",), workloads=("plaintext",), trials=1,
                           profile=Profile(connections=(8,), pipeline=16))
    (trial,) = _trials(rundir)
    assert trial["flags"] == ["errors", "no-pipelining"]


def test_an_overloaded_stack_that_pipelines_times_out_without_being_called_unable(root, tmp_path):
    _, rundir, _, _ = _run(root, tmp_path, driver=FakeDriver(rps=1000.0, errors=300, error_kind="timeout"),
                           frameworks=("flask",), workloads=("plaintext",), trials=1,
                           profile=Profile(connections=(8,), pipeline=16))
    (trial,) = _trials(rundir)
    assert trial["flags"] == ["errors"]


def test_a_failed_start_a_wrong_answer_a_death_and_a_leak_are_recorded_and_the_run_goes_on(root, tmp_path):
    stack = FakeStack(fails={"flask"}, wrong={("starlette", "json")}, leaks={"starlette"}, dies={"fastapi"})
    code, rundir, _, _ = _run(root, tmp_path, stack=stack, frameworks=("flask", "starlette", "fastapi", "sanic"),
                              trials=1)
    assert code == 0
    faults = {(f["framework"], f["stage"]) for f in rundir.lines() if f["kind"] == "fault"}
    assert faults == {("flask", "start"), ("starlette", "stop"), ("fastapi", "trial")}
    failed = [v for v in rundir.lines() if v["kind"] == "verification" and not v["passed"]]
    assert [(v["framework"], v["workload"]) for v in failed] == [("starlette", "json")]
    measured = {(t["framework"], t["workload"]) for t in _trials(rundir)}
    assert measured == {("starlette", "plaintext"), ("sanic", "plaintext"), ("sanic", "json")}


def test_the_server_settles_before_every_trial_its_warm_up_and_its_check(root, tmp_path):
    _, rundir, driver, stack = _run(root, tmp_path, frameworks=("flask",), trials=3, warmup=1.0)
    settles = [e for e in stack.events if e[0] == "settle"]
    # one before the check of all its workloads, one before each point's warm-up and each of its 3 trials
    assert len(settles) == 1 + len(WORKLOADS) * (1 + 3)
    kinds = [line["kind"] for line in rundir.lines()]
    assert kinds[:len(WORKLOADS)] == ["verification"] * len(WORKLOADS), "every workload checked before any load"


def test_every_trial_is_run_alike_after_the_points_warm_up(root, tmp_path):
    _, rundir, driver, _ = _run(root, tmp_path, frameworks=("flask",), workloads=("plaintext",), trials=3,
                                warmup=1.0)
    # The warm-up is a load of its own that ends when throughput holds (1 s the cap); then every trial opens
    # its own connections and warms them up briefly before its window.
    assert [(s.duration, s.warmup, s.warmup_steady) for s in driver.specs] == \
        [(context.TRIAL_WARMUP, 1.0, context.STEADY_PERCENT)] + [(2.0, context.TRIAL_WARMUP, None)] * 3
    trials = _trials(rundir)
    assert [t["warmup_s"] for t in trials] == [context.TRIAL_WARMUP, None, None]  # the first carries the point's


def test_wrk_and_ab_warm_up_in_a_load_of_their_own(root, tmp_path):
    _, rundir, driver, _ = _run(root, tmp_path, frameworks=("flask",), workloads=("plaintext",), trials=2,
                                warmup=1.0, driver_name="wrk")
    assert [(s.duration, s.warmup) for s in driver.specs] == [(1.0, 0.0), (2.0, 0.0), (2.0, 0.0)]
    assert [t["warmup_s"] for t in _trials(rundir)] == [1.0, None]


def test_connection_per_request_and_pipelining_reach_the_driver_and_the_label(root, tmp_path):
    profile = Profile(connections=(8,), keepalive_modes=(True, False))
    _, rundir, driver, _ = _run(root, tmp_path, frameworks=("flask",), workloads=("plaintext",), trials=1,
                                profile=profile)
    assert sorted((s.keepalive, s.pipeline) for s in driver.specs) == [(False, 1), (True, 1)]
    assert sorted(t["point"] for t in _trials(rundir)) == ["c=8", "c=8 conn-per-request"]
    profile = Profile(connections=(8,), pipeline=16)
    _, rundir, driver, _ = _run(root, tmp_path / "p", frameworks=("flask",), workloads=("plaintext", "websocket"),
                                trials=1, profile=profile)
    assert [t["point"] for t in _trials(rundir)] == ["c=8 pipeline=16"]


def test_check_uses_the_same_lifecycle(root, capsys):
    stack = FakeStack(wrong={("flask", "json")}, leaks={"starlette"})
    code = check.run(make_settings(root, IDS, workloads=WORKLOADS), stack=stack)
    out = capsys.readouterr().out
    assert code == 1
    assert "flask plaintext: ok" in out and "flask json: FAILED: json: body differs" in out
    assert "starlette: FAILED at stop: 1 process left behind" in out
    assert [e[0] for e in stack.events].count("settle") == 2, "once per server, before all its checks"
    assert stack.events[-1] == ("stop", "starlette")


def test_a_database_that_cannot_be_reset_is_a_fault_of_that_framework_only(root, tmp_path):
    stack = FakeStack(database=FakeDatabase(fail_after=2))
    code, rundir, _, _ = _run(root, tmp_path, stack=stack, workloads=("plaintext",), trials=2, interleave=False)
    assert code == 0
    (fault,) = [line for line in rundir.lines() if line["kind"] == "fault"]
    assert fault["framework"] == "starlette" and "lock timeout" in fault["reason"]
    assert [t["framework"] for t in _trials(rundir)] == ["flask", "flask"]


def test_each_stack_serves_once_per_tls_mode_and_only_the_transports_it_claims(fixture_root, tmp_path):
    profile = Profile(connections=(16,), tls_modes=(False, True), http_versions=("1.1", "2"), streams=4)
    _, rundir, driver, stack = _run(fixture_root, tmp_path, frameworks=("fake", "faketls"), trials=1,
                                    profile=profile)
    assert_valid_lines(rundir.lines())
    # Cleartext first, both stacks; then TLS, only the stack that serves it.
    assert [e for e in stack.events if e[0] == "start"] == [("start", "fake"), ("start", "faketls"),
                                                            ("start", "faketls", "tls")]
    measured = {(t["framework"], t["workload"], t["point"]) for t in _trials(rundir)}
    assert measured == {(f, w, p) for w in WORKLOADS for f, p in (
        ("fake", "c=16"), ("faketls", "c=16"), ("faketls", "c=16 h2c streams=4"), ("faketls", "c=16 tls"),
        ("faketls", "c=16 tls h2 streams=4"))}
    by_point = {(s.target.path, s.transport, s.streams, s.tls_ca is not None) for s in driver.specs}
    assert ("/plaintext", "h2+tls", 4, True) in by_point and ("/json", "h2c", 4, False) in by_point
    ca = {s.tls_ca for s in driver.specs if s.tls_ca}
    assert len(ca) == 1 and ca.pop().name == "ca.pem"
    skipped = [(s["framework"], s["workload"], s.get("point")) for s in rundir.lines() if s["kind"] == "skipped"]
    assert skipped == [("fake", w, "c=16 h2c streams=4") for w in WORKLOADS] + [("fake", None, None)]
    assert {t["tls"] for t in _trials(rundir) if t["framework"] == "faketls" and "tls" in t["point"]} == {True}
    # Reports name the transport of every point: cleartext HTTP/1.1 too, beside the others.
    summary = json.loads((rundir.path / "summary.json").read_text())
    (plaintext,) = [w for w in summary["workloads"] if w["workload"] == "plaintext"]
    assert [(p["label"], p["transport"]) for p in plaintext["points"]] == [
        ("c=16 h1", "h1"), ("c=16 h2c streams=4", "h2c"), ("c=16 tls", "h1+tls"), ("c=16 tls h2 streams=4", "h2+tls")]
    assert "c=16 tls h2 streams=4" in (rundir.path / "report.html").read_text()
    # The time left counts only what will be measured.
    plan = eta.plan(make_settings(fixture_root, ("fake", "faketls"), workloads=WORKLOADS, profile=profile),
                    catalog.discover(fixture_root), {})
    assert sum(plan.values()) == len(measured) == 10


def test_back_to_back_runs_group_servers_by_tls_mode_too(fixture_root, tmp_path):
    profile = Profile(connections=(16,), tls_modes=(True,))
    _, rundir, driver, stack = _run(fixture_root, tmp_path, frameworks=("fake", "faketls"), trials=2,
                                    profile=profile, interleave=False)
    assert [e for e in stack.events if e[0] == "start"] == [("start", "faketls", "tls")]
    assert {t["point"] for t in _trials(rundir)} == {"c=16 tls"} and len(driver.specs) == 4
    (skip,) = [s for s in rundir.lines() if s["kind"] == "skipped"]
    assert skip["framework"] == "fake" and skip["reason"].startswith("serves none of h1+tls (its framework.toml's")
    verified = [v for v in rundir.lines() if v["kind"] == "verification"]
    assert verified and all(v["tls"] for v in verified)


def test_a_stack_that_serves_none_of_a_parts_transports_is_not_started(fixture_root, tmp_path):
    profile = Profile(connections=(8,), http_versions=("2",), streams=8)
    _, rundir, driver, stack = _run(fixture_root, tmp_path, frameworks=("fake", "faketls"), trials=1,
                                    profile=profile)
    assert [e for e in stack.events if e[0] == "start"] == [("start", "faketls")]
    assert {s.transport for s in driver.specs} == {"h2c"} and {s.streams for s in driver.specs} == {8}
    assert [(s["framework"], s["workload"]) for s in rundir.lines() if s["kind"] == "skipped"] == [("fake", None)]


def test_each_trial_records_the_machines_speed_just_before_and_after_it(root, tmp_path):
    speeds = [5.0 + i / 10 for i in range(2 * len(IDS) * len(WORKLOADS))]
    _, rundir, _, _ = _run(root, tmp_path, stack=FakeStack(speed=FakeSpeed(*speeds)), trials=1)
    recorded = [t["machine_speed"] for t in _trials(rundir)]
    assert recorded == [{"before": b, "after": a} for b, a in zip(speeds[::2], speeds[1::2])]
    (session,) = rundir.read_meta()["sessions"]
    assert session["machine_speed"] == {"median": statistics.median(speeds), "min": speeds[0], "max": speeds[-1],
                                        "probes": len(speeds)}


def test_a_run_without_the_speed_probe_records_none(root, tmp_path):
    _, rundir, _, _ = _run(root, tmp_path, trials=1)
    assert {t["machine_speed"] for t in _trials(rundir)} == {None}
    assert rundir.read_meta()["sessions"][0]["machine_speed"] is None
