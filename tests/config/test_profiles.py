import pytest

from webshootout.config import profiles
from webshootout.config.profiles import Burst, Profile, ProfileError, RateSweep
from webshootout.workloads import registry


def labels(profile, workload, capacity=None):
    return [p.label for p in profiles.points(profile, workload, capacity)]


def test_closed_loop_points_per_connection_count():
    assert labels(Profile(connections=(16, 64)), "json") == ["c=16", "c=64"]


def test_hash_and_session_points_multiply_connection_counts():
    assert labels(Profile(connections=(300,), axes={"hash_n": (1, 1000)}), "hash") == ["c=300 n=1", "c=300 n=1000"]
    assert labels(Profile(axes={"sessions": (True, False)}), "session") == ["c=64", "c=64 cookieless"]
    assert labels(Profile(axes={"hash_n": (1, 1000)}), "json") == ["c=64"]  # hash_n only shapes the hash workload


def test_fixed_rates_and_sweeps_are_open_loop():
    points = profiles.points(Profile(rates=(100,), rate_sweep=RateSweep(1000, 4000, 4)), "db")
    assert [(p.mode, p.rate) for p in points] == [("open", 100), ("open", 1000), ("open", 2000), ("open", 3000),
                                                 ("open", 4000)]


def test_auto_sweep_runs_from_ten_to_120_percent_of_capacity():
    profile = Profile(rate_sweep=RateSweep(auto=True, steps=3))
    assert profiles.needs_capacity(profile, "plaintext") and not profiles.needs_capacity(profile, "websocket")
    assert labels(profile, "plaintext") == ["c=64"]  # before the capacity is known: the probe point only
    assert [p.rate for p in profiles.points(profile, "plaintext", capacity=10000)] == [1000, 6500, 12000]


def test_burst_is_one_point_with_its_steps():
    (point,) = profiles.points(Profile(connections=(16, 64), burst=Burst((100, 500), 5)), "plaintext")
    assert point.mode == "burst" and point.connections == 100 and point.burst.duration == 10
    assert point.label == "burst 100>500 x 5s"


def test_websocket_rate_replaces_the_http_rates():
    points = profiles.points(Profile(rates=(5,), websocket_rate=2000), "websocket")
    assert [(p.mode, p.rate) for p in points] == [("open", 2000)]


@pytest.mark.parametrize("pairs, slo, best", [
    ([(1000, 900), (2000, 4000), (3000, 12000)], 10, 2000),
    ([(3000, 9000), (1000, 500)], 10, 3000),  # order of the input does not matter
    ([(1000, 20000), (2000, 900)], 10, None),  # a pass above a failure is noise, not capacity
    ([(1000, None)], 10, None),
    ([], 10, None),
])
def test_sustainable_rate(pairs, slo, best):
    assert profiles.sustainable_rate(pairs, slo) == best


@pytest.mark.parametrize("table, field", [
    ({"rate": [0]}, "rate"), ({"rate_sweep": {"from": 5, "to": 1}}, "rate_sweep"),
    ({"rate_sweep": {"from": 5}}, "rate_sweep"), ({"burst": {"steps": [1], "step_seconds": -1}}, "burst.step_seconds"),
    ({"workers": 0}, "workers"), ({"slo_p99_ms": "fast"}, "slo_p99_ms"), ({"hash_n": [100001]}, "hash_n"),
])
def test_bad_values_name_the_field(table, field):
    with pytest.raises(ProfileError, match=field):
        profiles.parse(table)


def test_parse_keeps_the_base_for_keys_not_given():
    base = profiles.parse({"connections": [8], "hash_n": [1, 5]})
    assert profiles.parse({"rate": 50}, base) == Profile(connections=(8,), axes={"hash_n": (1, 5)}, rates=(50.0,))


def test_queries_and_count_are_load_point_axes_of_their_workloads_only():
    profile = Profile(connections=(512,), axes={"queries": (1, 5, 20), "count": (1, 100)})
    assert labels(profile, "queries") == ["c=512 queries=1", "c=512 queries=5", "c=512 queries=20"]
    assert labels(profile, "updates") == ["c=512 queries=1", "c=512 queries=5", "c=512 queries=20"]
    assert labels(profile, "cached") == ["c=512 count=1", "c=512 count=100"]
    assert labels(profile, "db") == labels(profile, "fortunes") == ["c=512"]
    assert [p.value for p in profiles.points(profile, "updates")] == [1, 5, 20]
    assert labels(Profile(), "queries") == ["c=64 queries=20"] and labels(Profile(), "cached") == ["c=64 count=100"]


@pytest.mark.parametrize("table, message", [
    ({"queries": [0]}, "queries: expected a positive integer"), ({"queries": [501]}, "queries: at most 500"),
    ({"count": ["10"]}, "count: expected a positive integer"), ({"count": 1000}, "count: at most 500"),
])
def test_queries_and_count_values_are_checked(table, message):
    with pytest.raises(ProfileError, match=message):
        profiles.parse(table)


def test_queries_and_count_parse_from_a_suite_table():
    assert profiles.parse({"queries": [1, 20], "count": 50}) == Profile(axes={"queries": (1, 20), "count": (50,)})


def test_transports_multiply_the_points_and_cleartext_http1_labels_are_unchanged():
    profile = profiles.parse({"tls": [False, True], "http": ["1.1", "2"], "streams": 10})
    assert labels(profile, "json") == ["c=64", "c=64 h2c streams=10", "c=64 tls", "c=64 tls h2 streams=10"]
    assert [p.transport for p in profiles.points(profile, "json")] == ["h1", "h2c", "h1+tls", "h2+tls"]
    assert labels(Profile(), "json") == ["c=64"]


def test_websocket_is_http1_only_and_over_tls_is_wss():
    profile = profiles.parse({"tls": [False, True], "http": ["1.1", "2"]})
    assert labels(profile, "websocket") == ["c=64", "c=64 tls"]
    assert labels(profiles.parse({"http": "2"}), "websocket") == []


def test_grpc_goes_over_http2_whatever_the_profiles_http_versions():
    http2_only = [w for w in registry.NAMES if registry.get(w).http2_only]
    assert len(http2_only) == 2
    for workload in http2_only:
        both = profiles.parse({"tls": [False, True], "http": ["1.1", "2"], "streams": 4})
        assert all(point.http == "2" for point in profiles.points(both, workload))
        assert [p.label.endswith("h2c streams=4") or p.label.endswith("tls h2 streams=4")
                for p in profiles.points(both, workload)] == [True, True]
        assert [p.http for p in profiles.points(Profile(), workload)] == ["2"]


def test_http_and_tls_values_in_toml_forms():
    assert profiles.parse({"http": 2}).http_versions == ("2",)
    assert profiles.parse({"http": 1.1}).http_versions == ("1.1",)
    assert profiles.parse({"tls": True}).tls_modes == (True,)
    (point,) = profiles.points(profiles.parse({"tls": True, "keepalive": False}), "json")
    assert point.label == "c=64 conn-per-request tls" and point.http == "1.1"


@pytest.mark.parametrize("table, message", [
    ({"tls": "yes"}, "tls: expected true, false or a list"), ({"tls": [True, True]}, "tls: expected"),
    ({"http": "3"}, "http: expected \"1.1\", \"2\""), ({"http": True}, "http: expected"), ({"http": []}, "http"),
    ({"streams": 10}, "streams: 10 concurrent streams need http = \"2\""), ({"streams": 0}, "streams: expected"),
    ({"http": "2", "pipeline": 16}, "http: HTTP/2 does not pipeline"),
    ({"http": ["1.1", "2"], "keepalive": "both"}, "keepalive: a connection per request is measured over HTTP/1.1"),
])
def test_bad_transport_values_are_named(table, message):
    with pytest.raises(ProfileError, match=message):
        profiles.parse(table)


def test_requests_per_connection_is_a_point_each_beside_keep_alive():
    profile = profiles.parse({"requests_per_connection": [0, 10]})
    assert labels(profile, "json") == ["c=64", "c=64 req/conn=10"]
    assert [p.per_connection for p in profiles.points(profile, "json")] == [0, 10]
    # A connection per request is not kept, so it is not closed after ten either; WebSocket keeps its one.
    assert labels(profiles.parse({"requests_per_connection": 10, "keepalive": "both"}), "json") == [
        "c=64 req/conn=10", "c=64 conn-per-request"]
    assert labels(profile, "websocket") == ["c=64"]


@pytest.mark.parametrize("table, message", [
    ({"requests_per_connection": -1}, "requests_per_connection: expected a whole number of at least 0"),
    ({"requests_per_connection": [10, 10]}, "or a list of distinct ones"),
    ({"requests_per_connection": True}, "requests_per_connection: expected"),
    ({"requests_per_connection": 10, "pipeline": 4}, "one request in flight at a time"),
])
def test_bad_requests_per_connection_values_are_named(table, message):
    with pytest.raises(ProfileError, match=message):
        profiles.parse(table)
