import json

import pytest

from pathlib import Path

from webshootout.load import ab, wrk
from webshootout.load.base import ERROR_KINDS, DriverError, LoadSpec, connects_inside, request_errors
from webshootout.workloads import Target


def test_wrk_summary_is_read_from_json(fixture_root):
    data = json.loads((fixture_root / "drivers" / "wrk.json").read_text())
    result = wrk.parse(data, client_cpu_s=2.5, sessions_requested=False)
    assert result.requests == 41250 and result.bytes_read == 5610000
    assert result.duration_s == pytest.approx(3.001234)
    assert result.rps == pytest.approx(41250 / 3.001234)
    assert result.latency_us["p99"] == 5120 and result.latency_us["p99_99"] == 15007
    assert result.errors == {"connect": 0, "read": 2, "write": 0, "timeout": 1, "status": 5,
                             "validation": 0, "parse": 0}
    assert result.client_cpu_s == 2.5 and not result.validated and result.notes == ()


def test_wrk_session_runs_say_they_are_cookieless(fixture_root):
    data = json.loads((fixture_root / "drivers" / "wrk.json").read_text())
    result = wrk.parse(data, 1.0, sessions_requested=True)
    assert not result.sessions and "cookieless" in result.notes[0]


def test_wrk_summary_missing_field_is_a_clear_error():
    with pytest.raises(DriverError, match="duration_us"):
        wrk.parse({"requests": 1}, 1.0, False)


def test_ab_percentiles_and_summary(fixture_root):
    summary = (fixture_root / "drivers" / "ab.txt").read_text()
    percentiles = (fixture_root / "drivers" / "ab.csv").read_text()
    result = ab.parse(summary, percentiles, 1.5, sessions_requested=False)
    assert result.requests == 12000 and result.duration_s == 3.0 and result.rps == 4000.0
    assert result.latency_us["p50"] == pytest.approx(5500.0) and result.latency_us["p99"] == pytest.approx(10400.0)
    assert result.latency_us["max"] == pytest.approx(10500.0) and result.latency_us["p99_9"] is None
    assert result.latency_us["mean"] == pytest.approx(16000.0)
    assert result.errors["read"] == 3 and result.errors["status"] == 4
    assert set(result.errors) == set(ERROR_KINDS)


def test_ab_bad_csv_is_a_clear_error():
    with pytest.raises(DriverError, match="no header"):
        ab.parse_percentiles("garbage")
    with pytest.raises(DriverError, match="lacks rows"):
        ab.parse_percentiles("Percentage served,Time in ms\n1,2\n")


def test_ab_missing_line_is_a_clear_error(fixture_root):
    percentiles = (fixture_root / "drivers" / "ab.csv").read_text()
    with pytest.raises(DriverError, match="Complete requests"):
        ab.parse("Server Software: x\n", percentiles, 1.0, False)


def _spec(**kw) -> LoadSpec:
    return LoadSpec("127.0.0.1", 8080, Target("/"), connections=8, threads=2, duration=3.0, cpus=(0,), **kw)


def test_ab_keeps_alive_unless_told_not_to():
    assert "-k" in ab.argv(_spec(), Path("p.csv"))
    assert "-k" not in ab.argv(_spec(keepalive=False), Path("p.csv"))


def test_ab_and_wrk_refuse_pipelining_naming_the_option():
    with pytest.raises(DriverError, match="pipeline = 16"):
        ab.argv(_spec(pipeline=16), Path("p.csv"))
    with pytest.raises(DriverError, match="pipeline = 16"):
        wrk.run(_spec(pipeline=16))


def test_wrk_refuses_a_connection_per_request():
    with pytest.raises(DriverError, match="keepalive off"):
        wrk.run(_spec(keepalive=False))


def test_wrk_and_ab_say_at_many_connections_that_they_cannot_separate_the_connects(fixture_root):
    data = json.loads((fixture_root / "drivers" / "wrk.json").read_text())
    plain = wrk.parse(data, 1.0, sessions_requested=False)
    many = LoadSpec("127.0.0.1", 8080, Target("/"), connections=5000, threads=2, duration=3.0, cpus=(0,))
    noted = connects_inside(plain, many, wrk.HOW_IT_CONNECTS)
    assert noted.connect is None and len(noted.notes) == 1
    assert noted.notes[0].startswith("connects not separated: wrk starts every connect of a thread at once")
    assert connects_inside(plain, _spec(), wrk.HOW_IT_CONNECTS) is plain, "8 connections: nothing to say"
    assert "ab starts its clock" in ab.HOW_IT_CONNECTS


def test_a_failed_connect_is_a_request_error_only_with_a_connection_per_request():
    errors = {kind: 0 for kind in ERROR_KINDS} | {"connect": 5, "timeout": 2}
    assert request_errors(errors) == 2 and request_errors(errors, keepalive=False) == 7
