"""The workload registry: every workload is one module's WORKLOAD, and no other source file names it."""

import re
from pathlib import Path

import pytest

from webshootout.config import profiles
from webshootout.stacks import catalog
from webshootout.workloads import registry
from webshootout.workloads.spec import Workload

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "webshootout"
# The quoted word means something else in these files; nothing else outside a workload's module may say it.
OTHER_MEANINGS = {
    ("json", "cli.py"): "the --format of `shootout report`",
    ("json", "report/__init__.py"): "the summary.json format",
    ("json", "commands/report.py"): "the summary.json format",
    ("json", "report/conform_table.py"): "the summary.json format, which takes no conform table",
    ("session", "engine/eta.py"): "a trial line's session: the run's start or a --resume",
    ("session", "commands/run.py"): "a trial line's session: the start whose probes meta.json's entry sums up",
    ("static", "services/assets.py"): "the directory the served files are written to",
    ("updates", "stacks/catalog.py"): "the manifest's fairness.updates",
    ("updates", "stacks/fairness.py"): "docs/fairness.md's column of fairness.updates",
}


def module_of(name: str) -> str:
    """A workload's module: its name, dashes (json-comp) as underscores."""
    return name.replace("-", "_")


def test_every_workload_module_registers_one_workload_under_its_own_name():
    modules = {p.stem for p in (PACKAGE / "workloads").glob("*.py")}
    assert registry.NAMES and {module_of(name) for name in registry.NAMES} <= modules
    for name, workload in registry.REGISTRY.items():
        assert isinstance(workload, Workload) and workload.name == name
    assert [w.order for w in registry.REGISTRY.values()] == sorted({w.order for w in registry.REGISTRY.values()})


@pytest.mark.parametrize("name", registry.NAMES)
def test_a_workload_is_named_only_in_its_own_module(name):
    found = sorted(str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if f'"{name}"' in p.read_text())
    others = [f for f in found if f != f"workloads/{module_of(name)}.py" and (name, f) not in OTHER_MEANINGS]
    assert others == [], f'"{name}" is written outside workloads/{module_of(name)}.py: read it from the registry'


def test_the_other_meanings_are_still_there():
    """An allowance nobody needs any more goes, so that it cannot hide a new use."""
    for (name, path), _ in OTHER_MEANINGS.items():
        assert f'"{name}"' in (PACKAGE / path).read_text(), (name, path)


def test_the_harness_reads_workloads_from_the_registry():
    assert catalog.WORKLOADS == registry.NAMES
    assert registry.DATABASE == {"db", "session", "queries", "updates", "fortunes", "cached", "crud"}
    assert set(profiles.KEYS) >= set(registry.axes())


def test_an_axis_makes_one_point_per_value_labelled_by_its_word():
    axis = registry.get("hash").axis
    points = profiles.points(profiles.Profile(axes={axis.key: (1, 1000)}), "hash")
    assert [(p.value, p.label) for p in points] == [(1, "c=64 n=1"), (1000, "c=64 n=1000")]
    assert points[0].axis_fields() == {key: (1 if key == axis.key else None)
                                       for key, a in registry.axes().items() if a.in_trial_line}


def test_a_bad_axis_value_names_its_key():
    with pytest.raises(profiles.ProfileError, match=re.escape("queries: at most 500")):
        profiles.parse({"queries": [600]})
    with pytest.raises(profiles.ProfileError, match="sessions: expected one of"):
        profiles.parse({"sessions": "sometimes"})
