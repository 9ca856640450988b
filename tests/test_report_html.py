"""report.html without a browser: self-contained, escaped, axes on round numbers."""

from pathlib import Path

from webshootout.report import html, summary, svg
from webshootout.results import RunDir

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "runs" / "baseline"


def _summary() -> dict:
    rundir = RunDir(FIXTURE)
    return summary.summarize(rundir.read_meta(), rundir.lines())


def test_nice_axis_ends_on_a_round_step():
    assert svg.nice_axis(53_607) == (60_000, 20_000)
    assert svg.nice_axis(2_364) == (2_500, 500)
    assert svg.nice_axis(81) == (100, 20)
    assert svg.nice_axis(30) == (30, 10)
    assert svg.nice_axis(0) == (1.0, 0.25)


def test_page_is_self_contained():
    page = html.render(_summary())
    assert "<script" not in page and "<link" not in page and "src=" not in page
    assert page.replace('xmlns="http://www.w3.org/2000/svg"', "").count("http") == 0


def test_names_and_reasons_are_escaped():
    data = _summary()
    data["not_measured"][0]["reason"] = "<b>bold</b> & more"
    page = html.render(data)
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; more" in page and "<b>bold</b>" not in page


def test_one_colour_per_framework_across_charts():
    page = html.render(_summary())
    colours = html._colors(_summary())
    assert list(colours) == ["alpha", "beta", "gamma"]
    for framework, colour in colours.items():
        assert f'data-framework="{framework}"' in page and colour in page
