"""A short real run over h1, h2c, h1+tls and h2+tls: the test fixture's own server (tests/fixtures/frameworks/
python/faketls) started once per TLS mode with the run's certificate, verified and settled over TLS, and
driven by shootout-load and by h2load; a server that does not select h2 by ALPN is a fault naming it."""

import shutil

import pytest

from schemas import assert_valid_lines
from webshootout.commands import run
from webshootout.load import native
from webshootout.load.base import DriverError
from webshootout.config.profiles import Profile
from webshootout.results.rundir import RunDir

from .helpers import cpus_kept_near, make_settings  # noqa: F401 - a fixture

# No trial waits for the host to run the two vCPUs together (helpers.cpus_near): none of what this proves.
pytestmark = [pytest.mark.integration, pytest.mark.usefixtures("cpus_kept_near")]
# What the server did not select, as each driver says it.
NO_H2 = {"native": "did not select h2 by ALPN", "h2load": "selected no protocol h2load offered by ALPN"}

TRANSPORTS = Profile(connections=(2,), tls_modes=(False, True), http_versions=("1.1", "2"), streams=2)


def _usable(driver: str) -> None:
    if driver == "h2load" and shutil.which("h2load") is None:
        pytest.skip("h2load is not installed (./shootout setup --harness-only installs it)")
    if driver == "native":
        try:
            native.binary()
        except DriverError as exc:
            pytest.skip(str(exc))


def _run(fixture_root, tmp_path, frameworks, profile, driver) -> list[dict]:
    _usable(driver)
    settings = make_settings(fixture_root, frameworks, out=tmp_path, workloads=("plaintext", "json"),
                             driver=driver, duration=1.0, warmup=0.0, profile=profile)
    assert run.run(settings, ["run"]) == 0
    (run_dir,) = tmp_path.iterdir()
    lines = RunDir(run_dir).lines()
    assert_valid_lines(lines)
    return lines


@pytest.mark.parametrize("driver", ["native", "h2load"])
def test_every_transport_the_stack_claims_is_measured_over_itself(fixture_root, tmp_path, no_leftovers, driver):
    lines = _run(fixture_root, tmp_path, ("faketls",), TRANSPORTS, driver)
    assert not [line for line in lines if line["kind"] in ("fault", "skipped")], lines
    verified = [(v["workload"], v["tls"], v["passed"]) for v in lines if v["kind"] == "verification"]
    assert verified == [(w, tls, True) for tls in (False, True) for w in ("plaintext", "json")]
    trials = {line["point"]: line for line in lines if line["kind"] == "trial" and line["workload"] == "json"}
    assert set(trials) == {"c=2", "c=2 h2c streams=2", "c=2 tls", "c=2 tls h2 streams=2"}
    for point, line in trials.items():
        assert line["requests"] > 0 and line["status_counts"] == {"200": line["requests"]}, line
        negotiated = line["transport"]
        assert negotiated["http"] == ("2" if "h2" in point else "1.1") and negotiated["streams"] == line["streams"]
        assert (negotiated["tls"] is not None) == line["tls"] == ("tls" in point)
    assert trials["c=2 tls h2 streams=2"]["transport"]["tls"]["alpn"] == "h2"


@pytest.mark.parametrize("driver", ["native", "h2load"])
def test_a_server_that_does_not_select_h2_is_a_fault_naming_it(fixture_root, tmp_path, no_leftovers, driver):
    profile = Profile(connections=(2,), tls_modes=(True,), http_versions=("2",))
    lines = _run(fixture_root, tmp_path, ("faketls-noh2",), profile, driver)
    faults = [line for line in lines if line["kind"] == "fault"]
    assert {f["workload"] for f in faults} == {"plaintext", "json"} and not [
        line for line in lines if line["kind"] == "trial"]
    assert all(NO_H2[driver] in f["reason"] for f in faults), faults


def test_a_connection_per_request_over_tls_makes_a_full_handshake_for_each(fixture_root, tmp_path, no_leftovers):
    profile = Profile(connections=(2,), tls_modes=(True,), keepalive_modes=(False,))
    lines = _run(fixture_root, tmp_path, ("faketls",), profile, "native")
    trials = [line for line in lines if line["kind"] == "trial"]
    assert {t["point"] for t in trials} == {"c=2 conn-per-request tls"}
    for trial in trials:
        handshakes = trial["transport"]["tls"]
        assert trial["requests"] > 0 and handshakes["resumed"] == 0, trial
        assert handshakes["handshakes"] >= trial["requests"], trial
