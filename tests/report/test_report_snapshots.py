"""Terminal and markdown output of the fixture run, compared with committed snapshots.

After an intended change of the output: UPDATE_SNAPSHOTS=1 pytest tests/test_report_snapshots.py, then
read the diff of tests/fixtures/runs/snapshots/ before committing it.
"""

import json
import os
import shutil
from pathlib import Path

import pytest

from webshootout import cli
from webshootout.report import markdown, summary, terminal
from webshootout.results.rundir import RunDir

RUNS = Path(__file__).resolve().parents[1] / "fixtures" / "runs"
SNAPSHOTS = RUNS / "snapshots"


def _summary() -> dict:
    rundir = RunDir(RUNS / "baseline")
    return summary.summarize(rundir.read_meta(), rundir.lines())


@pytest.mark.parametrize("name, render", [("baseline.terminal.txt", terminal.render),
                                          ("baseline.md", markdown.render)])
def test_snapshot(name, render):
    text = render(_summary())
    path = SNAPSHOTS / name
    if os.environ.get("UPDATE_SNAPSHOTS"):
        path.write_text(text)
    assert text == path.read_text()


def test_report_command_writes_the_three_files(tmp_path, capsys):
    run = tmp_path / "run"
    shutil.copytree(RUNS / "baseline", run)
    assert cli.main(["report", str(run)]) == 0
    assert capsys.readouterr().out == (SNAPSHOTS / "baseline.terminal.txt").read_text() + "\n"
    assert (run / "report.md").read_text() == (SNAPSHOTS / "baseline.md").read_text()
    assert json.loads((run / "summary.json").read_text()) == json.loads(summary.to_json(_summary()))
    html = (run / "report.html").read_text()
    assert html.startswith("<!DOCTYPE html>") and "<script" not in html and "http://" not in html.replace(
        'xmlns="http://www.w3.org/2000/svg"', "")
    assert cli.main(["report", str(run), "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["schema"] == 2


def test_report_of_a_directory_that_is_not_a_run(tmp_path, capsys):
    assert cli.main(["report", str(tmp_path)]) == 2
    assert "no meta.json" in capsys.readouterr().err
