import pytest

from webshootout import suites
from webshootout.suites import SuiteError


def test_committed_suites_load(root):
    quick = suites.find(root, "quick")
    assert quick.frameworks and quick.trials == 3 and quick.connections == (64,)
    assert suites.find(root, "full").frameworks is None


@pytest.mark.parametrize("text, field", [
    ("trials = 0", "trials"), ("connections = [0]", "connections"), ("workloads = ['graphql']", "graphql"),
    ("colour = 1", "colour"), ("frameworks = 3", "frameworks"), ("duration = 'long'", "duration"),
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
