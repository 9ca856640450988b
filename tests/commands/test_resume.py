"""--resume rebuilds the run's settings from meta.json and refuses flags that would measure it differently."""

import pytest

from webshootout import cli
from webshootout.results.rundir import RunDir
from webshootout.config.settings import SettingsError


def _run_dir(tmp_path, argv):
    rundir = RunDir(tmp_path / "run")
    rundir.create()
    rundir.write_meta({"argv": argv, "command": "./shootout " + " ".join(argv)})
    return str(rundir.path)


def _resume(path, *flags):
    return cli._resumed(cli.parser().parse_args(["run", "--resume", path, *flags]))


def test_resume_restores_the_settings_it_was_started_with(tmp_path):
    path = _run_dir(tmp_path, ["run", "--frameworks", "flask", "--duration", "3", "--connections", "16,64"])
    settings = _resume(path)
    assert settings.duration == 3.0 and settings.frameworks == ("flask",)
    assert settings.parts[0].profile.connections == (16, 64) and str(settings.resume) == path


def test_more_trials_or_the_same_values_are_allowed(tmp_path):
    path = _run_dir(tmp_path, ["run", "--frameworks", "flask", "--duration", "3"])
    settings = _resume(path, "--trials", "5", "--duration", "3")
    assert settings.trials == 5 and settings.duration == 3.0


@pytest.mark.parametrize("flags, message", [
    (["--duration", "5"], "--duration: the run was made with 3.0, --resume was given 5.0"),
    (["--warmup", "0"], "--warmup: the run was made with 2.0, --resume was given 0.0"),
    (["--driver", "wrk"], "--driver: the run was made with 'native', --resume was given 'wrk'"),
    (["--connections", "256"], "--connections: the run was made with (64,) (part adhoc), --resume was given (256,)"),
    (["--workers", "2"], "--workers: the run was made with None"),
    (["--rate", "1000"], "--rate: the run was made with ()"),
    (["--sessions", "both"], "--sessions: the run was made with (True,)"),
    (["--suite", "sessions"], "--suite: the run was made with 'adhoc', --resume was given 'sessions'"),
])
def test_a_contradicting_flag_is_refused_with_both_values(tmp_path, flags, message):
    path = _run_dir(tmp_path, ["run", "--frameworks", "flask", "--duration", "3"])
    with pytest.raises(SettingsError) as info:
        _resume(path, *flags)
    assert message in str(info.value)


def test_a_default_suite_run_stays_that_suite(tmp_path):
    path = _run_dir(tmp_path, ["run"])
    assert _resume(path).suite_name == "quick"
    narrowed = _resume(path, "--frameworks", "flask")
    assert narrowed.suite_name == "quick" and narrowed.frameworks == ("flask",)
    with pytest.raises(SettingsError, match="--duration"):
        _resume(path, "--duration", "9")
