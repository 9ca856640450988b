"""TechEmpower's database types measured end to end against the right fixture: each load point asks for its
rows per request, the driver checks every answer, and the point's label and numbers reach the results."""

import pytest

from schemas import assert_valid_lines
from webshootout.commands import run
from webshootout.config.profiles import Profile
from webshootout.config.suites import Part
from webshootout.report import summary
from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, make_settings  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]

STACK = ("fakedb",)


def test_queries_updates_cached_and_fortunes_points_are_checked_and_labelled(fixture_root, tmp_path, no_leftovers):
    profile = Profile(connections=(4,), axes={"queries": (1, 5), "count": (1, 10)})
    parts = (Part("db", STACK, ("queries", "updates", "cached", "fortunes"), profile),)
    settings = make_settings(fixture_root, STACK, out=tmp_path, duration=1.0, warmup=0.0, parts=parts)
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    lines = RunDir(run_dir).lines()
    assert_valid_lines(lines)
    trials = {(line["workload"], line["point"]): line for line in lines if line["kind"] == "trial"}
    assert set(trials) == {("queries", "c=4 queries=1"), ("queries", "c=4 queries=5"),
                           ("updates", "c=4 queries=1"), ("updates", "c=4 queries=5"),
                           ("cached", "c=4 count=1"), ("cached", "c=4 count=10"), ("fortunes", "c=4")}
    for line in trials.values():
        assert line["validated"] and line["requests"] > 0 and line["errors"]["validation"] == 0, line
    assert trials[("updates", "c=4 queries=5")]["queries"] == 5 and trials[("cached", "c=4 count=10")]["count"] == 10
    data = summary.summarize(RunDir(run_dir).read_meta(), lines)
    queries = next(w for w in data["workloads"] if w["workload"] == "queries")
    assert [p["label"] for p in queries["points"]] == ["c=4 queries=1", "c=4 queries=5"]
