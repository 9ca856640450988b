"""conform as a stage of `run`: on in the full suite, off in the quick one, --conform/--no-conform over both;
its conform.json in the run folder and its table in every report format but JSON."""

import json
from argparse import Namespace

import pytest

from webshootout import ROOT
from webshootout.commands import conform as conform_cmd
from webshootout.config import settings as settings_mod
from webshootout.report import conform_table

from .test_command import FakeStack, _settings


def _flags(**given):
    return Namespace(**{"suite": None, "frameworks": None, "conform": None, **given})


@pytest.mark.parametrize(("given", "expected"), [
    ({"suite": "full"}, True), ({"suite": "quick"}, False), ({"suite": "full", "conform": False}, False),
    ({"suite": "quick", "conform": True}, True), ({"frameworks": "go-nethttp"}, False),
])
def test_the_stage_is_on_in_the_full_suite_and_off_in_the_quick_one(given, expected):
    assert settings_mod.build(_flags(**given), ROOT).conform is expected


def test_the_stage_writes_conform_json_into_the_run_and_the_reports_show_its_table(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(conform_cmd.provision, "is_built", lambda variant: True)
    settings = _settings(tmp_path)
    conform_cmd.stage(settings, tmp_path, settings.variants(), env=None, stack=FakeStack("cl-te"))
    doc = json.loads((tmp_path / "conform.json").read_text())
    assert doc["stacks"][0]["id"] == "fake" and doc["stacks"][0]["http2"] is None
    assert "fake cl-te: fail" in capsys.readouterr().out
    terminal = conform_table.appended("(the rest)", "terminal", tmp_path)
    assert "== conformance" in terminal and "fail cl-te" in terminal.splitlines()[-1]
    html = conform_table.appended("<main><p>x</p></main>", "html", tmp_path)
    assert "<td class=\"l\">fake</td>" in html and html.endswith("</section></main>")
    assert "| fake |" in conform_table.appended("# report\n", "markdown", tmp_path)
    assert conform_table.appended("{}", "json", tmp_path) == "{}"
    assert conform_table.appended("(the rest)", "terminal", tmp_path / "none") == "(the rest)"
