"""A short real run of the reference frameworks: schema-valid results, real numbers, nothing left running."""

import pytest

from schemas import assert_valid_lines
from webshootout.commands import report, run
from webshootout.results.rundir import RunDir

from .helpers import make_settings

pytestmark = pytest.mark.integration


@pytest.mark.parametrize("driver", ["native", "wrk", "ab"])
def test_short_run_produces_valid_results(root, tmp_path, capsys, no_leftovers, driver):
    frameworks = ("flask", "starlette") if driver == "native" else ("flask",)
    # The contract's own workloads and starlette's WebSocket; TechEmpower's four run in test_tfb_run.
    workloads = ("plaintext", "json", "db", "session", "hash", "static", "websocket") if driver == "native" \
        else ("plaintext", "db")
    # 1 s trials (make_settings: 2 s): every assertion below holds of any trial that measured at all, and the
    # native run has 13 of them.
    settings = make_settings(root, frameworks, out=tmp_path, driver=driver, workloads=workloads, duration=1.0)
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    rundir = RunDir(run_dir)
    lines = rundir.lines()
    assert_valid_lines(lines)
    meta = rundir.read_meta()
    assert meta["frameworks"]["flask"]["version"] and meta["machine"]["cpus"] >= 1
    assert meta["tools"]["postgres"].startswith("postgres")
    trials = [line for line in lines if line["kind"] == "trial"]
    measured = {(line["framework"], line["workload"]) for line in trials}
    expected = {(f, w) for f in frameworks for w in workloads if w != "websocket"} | (
        {("starlette", "websocket")} if driver == "native" else set())
    assert measured == expected
    for line in trials:
        assert line["rps"] > 0 and line["server_cpu_percent"] > 0 and line["server_rss_peak_mb"] > 1
        assert line["errors"]["status"] == 0, line
        if driver == "native":  # every response checked; each connection one visitor whose count rises
            assert line["validated"] and line["errors"]["validation"] == 0, line
            assert line["sessions"] == (line["workload"] == "session") and line["latency_histogram"]
    assert {"report.html", "report.md", "summary.json"} <= {p.name for p in run_dir.iterdir()}
    assert not [line for line in lines if line["kind"] in ("fault",)]
    capsys.readouterr()
    assert report.run(run_dir) == 0
    assert "== plaintext ==" in capsys.readouterr().out


def test_resume_skips_recorded_trials(root, tmp_path, no_leftovers):
    settings = make_settings(root, ("flask",), out=tmp_path, workloads=("plaintext",), duration=1.0, warmup=0.0)
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    before = RunDir(run_dir).lines()
    resumed = make_settings(root, ("flask",), workloads=("plaintext",), duration=1.0, warmup=0.0, trials=2,
                            resume=run_dir)
    assert run.run(resumed, ["run"]) == 0
    trials = [line["trial"] for line in RunDir(run_dir).lines() if line["kind"] == "trial"]
    assert trials == [1, 2] and len(RunDir(run_dir).lines()) > len(before)
