import json
import re
from pathlib import Path

import jsonschema
import pytest

from schemas import assert_valid_lines
from webshootout.results import records
from webshootout.results.rundir import ResultsError, RunDir, new_run_dir

TRIAL = {"kind": "trial", "framework": "flask", "display": "Flask", "language": "python", "workload": "json",
         "part": "adhoc", "point": "c=64", "profile": "closed", "connections": 64, "trial": 1, "time": "2026-01-01T00:00:00+00:00", "driver": "wrk", "requests": 10,
         "duration_s": 1.0, "rps": 10.0, "bytes_read": 100,
         "latency_us": {k: 1.0 for k in ("p50", "p75", "p90", "p99", "p99_9", "p99_99", "max", "mean", "stdev")},
         "errors": {k: 0 for k in ("connect", "read", "write", "timeout", "status", "validation", "parse")},
         "client_cpu_s": 0.5, "client_cpu_percent": 50.0, "server_cpu_percent": 90.0, "server_rss_peak_mb": 50.0,
         "server_rss_mean_mb": 45.0, "validated": False, "sessions": False, "notes": [], "flags": [],
         "status_counts": {}, "server_memory_method": "cgroup", "database_cpu_percent": 0.0}


HARNESS = ("framework", "display", "language", "workload", "part", "point", "profile", "connections", "trial",
           "client_cpu_percent", "server_cpu_percent", "server_rss_peak_mb", "server_rss_mean_mb", "flags", "time",
           "server_memory_method", "database_cpu_percent")


def trial(number: int = 1) -> records.Trial:
    """TRIAL as the record the run writes: the harness's fields, and the driver's result as its load."""
    load = {k: v for k, v in TRIAL.items() if k not in HARNESS and k != "kind"}
    return records.Trial(**{k: TRIAL[k] for k in HARNESS}, load=load) if number == 1 else \
        records.Trial(**{**{k: TRIAL[k] for k in HARNESS}, "trial": number}, load=load)


def test_append_then_resume_keys(tmp_path):
    run = RunDir(tmp_path)
    run.create()
    run.append(trial())
    run.append(trial(2))
    assert run.done_trials() == {("adhoc", "flask", "json", "c=64", 1): 10.0, ("adhoc", "flask", "json", "c=64", 2): 10.0}
    lines = run.lines()
    assert all(line["schema"] == 1 for line in lines)
    assert_valid_lines(lines)


def test_torn_last_line_is_dropped_and_next_append_starts_fresh(tmp_path):
    run = RunDir(tmp_path)
    run.create()
    run.append(trial())
    with run.results.open("a") as out:
        out.write('{"schema": 1, "kind": "tri')
    assert len(run.lines()) == 1
    run.append(trial(2))
    assert [line["trial"] for line in run.lines()] == [1, 2]


def test_unknown_schema_is_refused(tmp_path):
    run = RunDir(tmp_path)
    run.create()
    run.results.write_text(json.dumps({**TRIAL, "schema": 99}) + "\n")
    with pytest.raises(ResultsError, match="schema 99"):
        run.lines()


def test_meta_round_trip_and_refusal(tmp_path):
    run = RunDir(tmp_path)
    run.create()
    run.write_meta({"suite": "quick"})
    assert run.read_meta()["suite"] == "quick"
    with pytest.raises(ResultsError, match="not a run directory"):
        RunDir(tmp_path / "nothing").read_meta()


@pytest.mark.parametrize("line, said", [
    ({**TRIAL, "kind": "bogus"}, "kind 'bogus'"),
    ({**TRIAL, "server_memory": "cgroup"}, "unknown field 'server_memory'"),
    ({k: v for k, v in TRIAL.items() if k != "server_rss_mean_mb"}, "'server_rss_mean_mb' is a required property"),
])
def test_a_line_its_record_does_not_define_is_refused_where_it_is_read(tmp_path, line, said):
    """A field renamed by the writer fails when the file is read, naming it, instead of showing as "-"."""
    run = RunDir(tmp_path)
    run.create()
    run.results.write_text(json.dumps({**line, "schema": 1}) + "\n")
    with pytest.raises(ResultsError, match=f"results.jsonl:1: .*{said}"):
        run.lines()


def test_a_record_is_written_as_the_flat_line_the_schema_describes():
    line = records.line_of(trial())
    assert {k: line[k] for k in TRIAL} == TRIAL
    assert_valid_lines([{**line, "schema": 1}])


@pytest.mark.parametrize("missing", ["latency_us", "part", "point"])
def test_schema_rejects_a_trial_without_a_required_field(missing):
    bad = {k: v for k, v in TRIAL.items() if k != missing}
    with pytest.raises(jsonschema.ValidationError, match=f"'{missing}' is a required property"):
        assert_valid_lines([{**bad, "schema": 1}])


def test_run_dirs_are_unique(tmp_path):
    first = new_run_dir(tmp_path, "quick")
    first.mkdir()
    assert new_run_dir(tmp_path, "quick") != first


def test_only_the_results_layer_spells_a_line_of_results_jsonl():
    package = Path(__file__).resolve().parents[2] / "src" / "webshootout"
    spelled = re.compile(r"""\{\s*["']kind["']\s*:\s*["'](?:%s)["']""" % "|".join(records.KINDS))
    found = [str(p.relative_to(package)) for p in package.rglob("*.py")
             if p.parent.name != "results" and spelled.search(p.read_text())]
    assert found == [], "build a record of results/records.py instead"
