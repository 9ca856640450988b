"""check and run share one lifecycle: a real server (the stdlib fixture) is settled before its checks and
every trial, and stopped with nothing left behind."""

import pytest

from fakes import FakeDriver
from webshootout import harness
from webshootout.commands import check, run
from webshootout.results.rundir import RunDir

from .helpers import make_settings

pytestmark = pytest.mark.integration


@pytest.fixture
def settles(monkeypatch):
    calls = []
    real = harness.settle

    def counting(srv):
        calls.append(srv.variant.id)
        return real(srv)

    monkeypatch.setattr(harness, "settle", counting)
    return calls


def test_check_settles_once_before_all_workloads(fixture_root, settles, no_leftovers, capsys):
    assert check.run(make_settings(fixture_root, ("fake",), workloads=("plaintext", "json"))) == 0
    assert settles == ["fake"]
    out = capsys.readouterr().out
    assert "fake plaintext: ok" in out and "fake json: ok" in out


def test_run_settles_before_each_check_and_trial(fixture_root, tmp_path, settles, no_leftovers, capsys):
    settings = make_settings(fixture_root, ("fake",), out=tmp_path, workloads=("plaintext",), trials=2, warmup=0.0)
    driver = FakeDriver()
    assert run.run(settings, ["run"], driver=driver) == 0
    (run_dir,) = tmp_path.iterdir()
    trials = [line for line in RunDir(run_dir).lines() if line["kind"] == "trial"]
    assert [t["trial"] for t in trials] == [1, 2] and all(t["server_rss_peak_mb"] > 1 for t in trials)
    # Once before the checks and before each trial; after each trial too where the CPU link is probed, so the
    # probe's thread on the server CPU does not share it with the trial's last requests.
    probed = sum(t["cpu_link"] is not None for t in trials)
    assert settles == ["fake"] * (3 + probed) and len(driver.specs) == 2
