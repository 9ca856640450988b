import argparse

import pytest

from webshootout import settings
from webshootout.settings import SettingsError


def args(**kw):
    base = dict(frameworks=None, workloads=None, suite=None, duration=None, warmup=None, trials=None,
                connections=None, driver=None, server_cpus=None, load_cpus=None, out=None, resume=None,
                no_install=False)
    return argparse.Namespace(**{**base, **kw})


def test_defaults_and_cli_flags(root):
    s = settings.build(args(frameworks="flask,starlette", duration=3.0, connections="16,64"), root)
    assert s.frameworks == ("flask", "starlette") and s.duration == 3.0 and s.connections == (16, 64)
    assert s.trials == 3 and s.driver == "wrk" and s.suite is None


def test_suite_values_apply_and_flags_override(root):
    s = settings.build(args(suite="quick", trials=1), root)
    assert s.suite.name == "quick" and s.trials == 1
    assert s.connections == s.suite.connections


def test_default_suite_only_without_a_selection(root):
    assert settings.build(args(), root, default_suite="quick").suite.name == "quick"
    assert settings.build(args(frameworks="flask"), root, default_suite="quick").suite is None


@pytest.mark.parametrize("kw, flag", [
    (dict(connections="0"), "--connections"), (dict(connections="a,b"), "--connections"),
    (dict(duration=0.1), "--duration"), (dict(trials=0), "--trials"), (dict(workloads="graphql"), "--workloads"),
    (dict(server_cpus="99"), "--server-cpus"), (dict(load_cpus="x"), "--load-cpus"), (dict(suite="nope"), "nope"),
])
def test_bad_flags_name_the_flag(root, kw, flag):
    with pytest.raises(SettingsError, match=flag):
        settings.build(args(**kw), root)


def test_cpu_ranges():
    assert settings.parse_cpus("--server-cpus", "0") == (0,)


def test_settings_are_frozen(root):
    s = settings.build(args(), root)
    with pytest.raises(AttributeError):
        s.trials = 5
