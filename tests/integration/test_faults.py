"""Servers that fail at every stage: the run goes on, records the fault with the log tail, leaks nothing."""

import psutil
import pytest

from webshootout.commands import run
from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, make_settings  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]


def test_faults_are_recorded_and_the_run_continues(fixture_root, tmp_path, capsys, no_leftovers):
    ids = ("fake-exits", "fake-neverready", "fake-dies", "fake-leaks", "fake-missingworkload", "fake")
    settings = make_settings(fixture_root, ids, out=tmp_path, duration=3.0, warmup=0.0,
                             workloads=("plaintext",))
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    lines = RunDir(run_dir).lines()
    faults = {line["framework"]: line for line in lines if line["kind"] == "fault"}

    assert faults["fake-exits"]["stage"] == "start"
    assert "exited with code 3" in faults["fake-exits"]["reason"]
    assert "cannot start: bad config" in faults["fake-exits"]["log_tail"]
    assert faults["fake-neverready"]["stage"] == "start" and "not ready after 2s" in faults["fake-neverready"]["reason"]
    assert faults["fake-dies"]["stage"] == "trial" and "exited (code 7)" in faults["fake-dies"]["reason"]
    assert faults["fake-leaks"]["stage"] == "stop" and "sleep" in faults["fake-leaks"]["reason"]
    skipped = [line for line in lines if line["kind"] == "skipped"]
    assert [line["framework"] for line in skipped] == ["fake-missingworkload"]

    trials = [line for line in lines if line["kind"] == "trial"]
    assert {line["framework"] for line in trials} == {"fake", "fake-leaks"}
    assert all(line["rps"] > 0 for line in trials)
    assert "not measured" in capsys.readouterr().out
    assert not [p for p in psutil.process_iter(["cmdline"]) if p.info["cmdline"] == ["sleep", "600"]]
