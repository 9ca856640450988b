import argparse

import pytest

from webshootout.config import settings
from webshootout.stacks.catalog import ManifestError
from webshootout.config.settings import SettingsError


def args(**kw):
    base = dict(frameworks=None, workloads=None, suite=None, duration=None, warmup=None, trials=None,
                connections=None, driver=None, server_cpus=None, load_cpus=None, out=None, resume=None,
                no_install=False, rate=None, rate_sweep=None, burst=None, hash_n=None, sessions=None, workers=None,
                slo_p99_ms=None, websocket_rate=None, keepalive=None, pipeline=None, tls=None, http=None,
                streams=None)
    return argparse.Namespace(**{**base, **kw})


def test_defaults_and_cli_flags(root):
    s = settings.build(args(frameworks="flask,starlette", duration=3.0, connections="16,64"), root)
    assert s.frameworks == ("flask", "starlette") and s.duration == 3.0 and s.parts[0].profile.connections == (16, 64)
    assert s.trials == 3 and s.suite is None and len(s.parts) == 1


def test_run_directories_given_relative_are_made_absolute(root, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    s = settings.build(args(frameworks="flask", out="runs"), root)
    assert s.out == tmp_path / "runs"
    assert settings.build(args(frameworks="flask", resume="runs/r1"), root).resume == tmp_path / "runs" / "r1"


def test_suite_values_apply_and_flags_override(root):
    s = settings.build(args(suite="quick", trials=1), root)
    assert s.suite.name == "quick" and s.trials == 1
    assert s.parts[0].profile == s.suite.parts[0].profile


def test_default_suite_only_without_a_selection(root):
    assert settings.build(args(), root, default_suite="quick").suite.name == "quick"
    assert settings.build(args(frameworks="flask"), root, default_suite="quick").suite is None


@pytest.mark.parametrize("kw, flag", [
    (dict(connections="0"), "--connections"), (dict(connections="a,b"), "--connections"),
    (dict(duration=0.1), "--duration"), (dict(trials=0), "--trials"), (dict(workloads="graphql"), "--workloads"),
    (dict(server_cpus="99"), "--server-cpus"), (dict(rate="fast"), "--rate"), (dict(rate_sweep="1:2:3:4"),
    "--rate-sweep"), (dict(rate_sweep="9:1"), "--rate-sweep"), (dict(burst="100,x"), "--burst"),
    (dict(hash_n="200000"), "--hash-n"), (dict(duration=float("nan")), "--duration"),
    (dict(duration=float("inf")), "--duration"), (dict(warmup=-1.0), "--warmup"), (dict(warmup=float("nan")), "--warmup"),
    (dict(rate="inf"), "--rate"), (dict(rate="nan"), "--rate"), (dict(rate="-5"), "--rate"), (dict(rate=","), "--rate"),
    (dict(connections=""), "--connections"), (dict(connections="-4"), "--connections"),
    (dict(burst="1000,500"), "--burst"), (dict(burst="100,500:nan"), "--burst"), (dict(workers=-1), "--workers"),
    (dict(slo_p99_ms=float("nan")), "--slo-p99-ms"), (dict(websocket_rate=float("inf")), "--websocket-rate"),
    (dict(hash_n="0"), "--hash-n"), (dict(pipeline=0), "--pipeline"),
    (dict(streams=4), "--streams: 4 concurrent streams need"), (dict(http="2", pipeline=4), "--http"),
    (dict(streams=0, http="2"), "--streams"), (dict(keepalive="off", rate="100"), "--keepalive"), (dict(keepalive="off", pipeline=4), "--keepalive"), (dict(trials=-2), "--trials"), (dict(rate_sweep="nan:5"), "--rate-sweep"), (dict(sessions="sometimes"), "--sessions"), (dict(load_cpus="x"), "--load-cpus"), (dict(suite="nope"), "nope"),
])
def test_bad_flags_name_the_flag(root, kw, flag):
    with pytest.raises(SettingsError, match=flag):
        settings.build(args(**kw), root)


def test_server_and_load_on_one_cpu_are_refused_where_there_is_a_choice(root, monkeypatch):
    monkeypatch.setattr(settings.os, "sched_getaffinity", lambda pid: {0, 1})
    with pytest.raises(SettingsError, match=r"--load-cpus 0 and --server-cpus 0 share CPU 0"):
        settings.build(args(load_cpus="0"), root)
    assert settings.build(args(server_cpus="1", load_cpus="0"), root).load_cpus == (0,)
    monkeypatch.setattr(settings.os, "sched_getaffinity", lambda pid: {0})
    alone = settings.build(args(), root)
    assert alone.server_cpus == alone.load_cpus == (0,)


def test_an_unknown_framework_is_named_where_it_was_given(tmp_path):
    (tmp_path / "suites").mkdir()
    (tmp_path / "suites" / "typo.toml").write_text('frameworks = ["acitx"]\n')
    with pytest.raises(ManifestError, match=r"^suites/typo.toml: unknown framework id 'acitx'"):
        settings.build(args(suite="typo"), tmp_path).variants()
    with pytest.raises(ManifestError, match=r"^--frameworks: unknown framework id 'acitx'"):
        settings.build(args(frameworks="acitx"), tmp_path).variants()


def test_cpu_ranges():
    assert settings.parse_cpus("--server-cpus", "0") == (0,)


def test_settings_are_frozen(root):
    s = settings.build(args(), root)
    with pytest.raises(AttributeError):
        s.trials = 5


def test_profile_flags_override_every_part_of_a_suite(tmp_path):
    (tmp_path / "suites").mkdir()
    (tmp_path / "suites" / "two.toml").write_text(
        'frameworks = ["a", "b"]\nconnections = 8\n[[runs]]\nworkloads = ["hash"]\nhash_n = [1, 1000]\n'
        '[[runs]]\nframeworks = ["b"]\nworkloads = ["plaintext"]\nconnections = 5000\n')
    s = settings.build(args(suite="two", rate="100,200", frameworks="a"), tmp_path)
    assert [p.frameworks for p in s.parts] == [("a",)]  # the second part runs only b: dropped
    assert s.parts[0].profile.rates == (100.0, 200.0) and s.parts[0].profile.axes["hash_n"] == (1, 1000)
    whole = settings.build(args(suite="two", rate_sweep="auto", burst="10,20:2"), tmp_path)
    assert [p.profile.connections for p in whole.parts] == [(8,), (5000,)]
    assert all(p.profile.rate_sweep.auto and p.profile.burst.steps == (10, 20) for p in whole.parts)


def test_queries_and_count_flags_become_points(root):
    s = settings.build(args(frameworks="flask", queries="1,5,10,15,20", count="1,10,20,50,100"), root)
    assert s.parts[0].profile.axes["queries"] == (1, 5, 10, 15, 20) and s.parts[0].profile.axes["count"] == (1, 10, 20, 50, 100)


@pytest.mark.parametrize("kw, message", [
    (dict(queries="0"), "--queries: expected positive numbers like '1,5,10,15,20'"),
    (dict(queries="5,x"), "--queries"), (dict(queries="600"), "--queries: at most 500"),
    (dict(count="-1"), "--count: expected positive numbers like '1,10,20,50,100'"),
])
def test_bad_queries_and_count_flags_name_the_flag(root, kw, message):
    with pytest.raises(SettingsError, match=message):
        settings.build(args(frameworks="flask", **kw), root)


def test_transport_flags_override_the_suite(root):
    s = settings.build(args(suite="quick", tls=True, http="2", streams=8), root)
    assert s.parts[0].profile.tls_modes == (True,) and s.parts[0].profile.http_versions == ("2",)
    assert s.parts[0].profile.streams == 8
    assert settings.build(args(suite="quick"), root).parts[0].profile.tls_modes == (False,)


def test_transport_flags_parse_on_run(root):
    from webshootout import cli
    parsed = cli.parser().parse_args(["run", "--frameworks", "flask", "--tls", "--http", "2", "--streams", "4"])
    profile = settings.build(parsed, root).parts[0].profile
    assert (profile.tls_modes, profile.http_versions, profile.streams) == ((True,), ("2",), 4)
    plain = cli.parser().parse_args(["run", "--suite", "transport", "--no-tls", "--http", "1.1"])
    assert {(p.profile.tls_modes, p.profile.http_versions) for p in settings.build(plain, root).parts} == {
        ((False,), ("1.1",))}
