import pytest

from webshootout.stacks import catalog
from webshootout.config import profiles, suites
from webshootout.config.suites import SuiteError


def test_committed_suites_load(root):
    quick = suites.find(root, "quick")
    assert quick.parts[0].frameworks and quick.trials == 5 and quick.parts[0].profile.connections == (64,)
    assert suites.union(p.frameworks for p in suites.find(root, "full").parts) is None


@pytest.mark.parametrize("text, field", [
    ("trials = 0", "trials"), ("connections = [0]", "connections"), ("workloads = ['graphql']", "graphql"),
    ("colour = 1", "colour"), ("frameworks = 3", "frameworks"), ("duration = 'long'", "duration"),
    ("rate_sweep = 'sometimes'", "rate_sweep"), ("burst = { steps = [] }", "burst.steps"),
    ("hash_n = [0]", "hash_n"), ("runs = 3", "runs"), ("[[runs]]\nspeed = 1", "runs[0].speed"),
    ("[[runs]]\nworkloads = ['x']", "runs[0].workloads"), ("sessions = 'maybe'", "sessions"),
    ("duration = nan", "duration"), ("warmup = -inf", "warmup"), ("duration = inf", "duration"),
    ("rate = inf", "rate"), ("rate = [100, nan]", "rate"), ("slo_p99_ms = -1.0", "slo_p99_ms"),
    ("websocket_rate = nan", "websocket_rate"), ("burst = { steps = [500, 100] }", "burst.steps"),
    ("rate_sweep = { from = 10, to = inf }", "rate_sweep.to"), ("connections = []", "connections"),
    ("workers = 0", "workers"), ("frameworks = []", "frameworks"), ("keepalive = 'sometimes'", "keepalive"),
    ("pipeline = 0", "pipeline"), ("keepalive = false\nrate = 100", "keepalive"),
])
def test_bad_suite_names_file_and_field(tmp_path, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(SuiteError) as info:
        suites.load(path)
    assert str(path) in str(info.value) and field in str(info.value)


def test_unknown_suite_lists_known(root):
    with pytest.raises(SuiteError, match="known: .*quick"):
        suites.find(root, "nope")


def test_every_committed_suite_loads(root):
    for path in sorted((root / "suites").glob("*.toml")):
        suite = suites.load(path)
        assert suite.parts and suite.description, path


def test_runs_inherit_the_top_level_selection_and_profile(tmp_path):
    path = tmp_path / "s.toml"
    path.write_text('frameworks = ["x"]\nconnections = 100\nsessions = "both"\n'
                    '[[runs]]\nworkloads = ["session"]\n[[runs]]\nname = "big"\nconnections = [5000]\n')
    one, two = suites.load(path).parts
    assert one.frameworks == two.frameworks == ("x",) and one.workloads == ("session",) and two.workloads is None
    assert one.profile.connections == (100,) and two.profile.connections == (5000,)
    assert two.profile.axes["sessions"] == (True, False) and (one.name, two.name) == ("s-1", "big")


def test_suites_name_only_known_frameworks_and_quick_covers_every_language(root):
    variants = {v.id: v for v in catalog.discover(root)}
    for path in sorted((root / "suites").glob("*.toml")):
        named = suites.union(p.frameworks for p in suites.load(path).parts) or ()
        assert set(named) <= set(variants), f"{path}: unknown {sorted(set(named) - set(variants))}"
    quick = suites.union(p.frameworks for p in suites.find(root, "quick").parts)
    assert {variants[i].language for i in quick} == {v.language for v in variants.values() if not v.unavailable}


@pytest.mark.parametrize("text, field", [("queries = [0]", "queries"), ("count = [501]", "count"),
                                         ("[[runs]]\nqueries = 'many'", "queries")])
def test_bad_rows_per_request_name_file_and_field(tmp_path, text, field):
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n")
    with pytest.raises(SuiteError, match=field) as info:
        suites.load(path)
    assert str(path) in str(info.value)


def test_tfb_runs_techempowers_levels_and_quick_keeps_its_workloads(root):
    tfb = {part.name: part for part in suites.find(root, "tfb").parts}
    assert tfb["queries-updates"].workloads == ("queries", "updates")
    assert tfb["queries-updates"].profile.axes["queries"] == (1, 5, 10, 15, 20)
    assert tfb["queries-updates"].profile.connections == tfb["cached"].profile.connections == (512,)
    assert tfb["cached"].profile.axes["count"] == (1, 10, 20, 50, 100)
    assert tfb["json-db-fortunes"].profile.connections == (16, 32, 64, 128, 256, 512)
    assert tfb["plaintext"].profile.pipeline == 16
    assert not set(suites.find(root, "quick").parts[0].workloads) & {"queries", "updates", "fortunes", "cached"}
    assert suites.find(root, "full").parts[0].workloads is None  # every workload, the new ones included


def test_the_transport_suite_measures_four_transports_and_the_handshake_cost(root):
    suite = suites.find(root, "transport")
    by_name = {part.name: part for part in suite.parts}
    labels = [p.label for p in profiles.points(by_name["transports"].profile, "json")]
    assert [p.transport for p in profiles.points(by_name["transports"].profile, "json")] == [
        "h1", "h2c", "h1+tls", "h2+tls"] and labels[0] == "c=64"
    (clear, tls) = profiles.points(by_name["handshakes"].profile, "json")
    assert not clear.keepalive and tls.label == "c=16 conn-per-request tls"
    assert by_name["handshakes"].workloads == ("json",)
    assert suite.parts[0].workloads == ("plaintext", "json", "static") and suite.trials == 3
