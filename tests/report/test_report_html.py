"""report.html without a browser: self-contained, escaped, axes on round numbers."""

import re
from html import escape as html_escape
from pathlib import Path

from webshootout.report import html, summary, svg
from webshootout.results.rundir import RunDir

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "runs" / "baseline"


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
    assert list(colours) == ["alpha", "beta", "gamma", "omega", "theta"]
    for framework, colour in colours.items():
        assert f'data-framework="{framework}"' in page and colour in page


def _lead(page: str) -> str:
    start = page.index("<h3>At a glance</h3>")
    return page[start:page.index("</section>", start)]


def test_at_a_glance_names_only_ranked_rows():
    lead = _lead(html.render(_summary()))
    # alpha is fastest at plaintext c=16 but client-bound; omega is the baseline: beta leads.
    assert "plaintext at c=16: <b>Beta</b> leads" in lead
    assert "<b>Alpha</b>" not in lead.split("</li>")[0] and "<b>Omega" not in lead
    assert "ceiling: Omega (static file baseline)" in lead
    # The verdict names the row it could not rank, and why, so "Beta leads" is not read as "Beta is fastest".
    first = lead.split("</li>")[0]
    assert "not ranked: Alpha (client-bound: answered faster than the load CPUs can measure" in first


def test_the_baseline_is_drawn_as_the_ceiling():
    data = _summary()
    omega = next(r for r in data["workloads"][0]["points"][0]["results"] if r["framework"] == "omega")
    page = html.render(data)
    assert f'<g class="ceiling" data-value="{omega["rps"]["median"]:g}">' in page
    assert "ceiling  Omega (static file baseline)" in page and "flagged  Alpha" in page and "apart  Theta" in page


def test_tool_versions_are_short_names():
    page = html.render(_summary())
    assert "ab 2.3 · postgres 15.0 · python 3.11.7 · wrk 4.1.0" in page
    assert "ApacheBench" not in page and "Copyright" not in page


def test_fit_keeps_the_start_and_cuts_after_a_whole_word():
    label = "=3rd  Jetty (plain Servlet) on the JVM"
    assert svg.fit(label, 1000) == label
    short = svg.fit(label, 120)
    assert short.endswith("…") and label.startswith(short[:-1].rstrip())
    assert label[len(short) - 1] == " "  # the cut falls between words
    assert svg.text_width(short) <= 120
    assert svg.fit("Supercalifragilistic", 40).startswith("Sup")  # one long word: cut, from its start


def _labels(page: str) -> list[tuple[str, str]]:
    """(visible text, full text) of every bar label and legend entry."""
    return re.findall(r'<text class="label"[^>]*>([^<]*)<title>([^<]*)</title></text>', page)


def test_bar_labels_are_never_cut_at_the_left():
    long_names = [svg.Bar(f"=3rd  {name}", 100.0 * (i + 1), "#000", name)
                  for i, name in enumerate(["nginx (static baseline)", "Jetty (plain Servlet)",
                                            "Spring Boot with Tomcat and a rather long description"])]
    chart = svg.bars("t", long_names, str)
    x = float(re.search(r'<text class="label" x="([0-9.]+)"', chart).group(1))
    for visible, full in _labels(chart):
        assert visible.startswith("=3rd  ")
        assert visible == full or (visible.endswith("…") and full.startswith(visible[:-1]))
        assert svg.text_width(visible) <= x  # right-aligned at x: it starts inside the picture
    visible = [v for v, _ in _labels(chart)]
    assert "=3rd  nginx (static baseline)" in visible and "=3rd  Jetty (plain Servlet)" in visible


def test_every_label_of_the_page_is_whole_or_shortened_from_its_start():
    labels = _labels(html.render(_summary()))
    assert labels
    for visible, full in labels:
        assert visible == html_escape(full) or full.startswith(visible[:-1])


def test_open_loop_point_is_compared_by_latency():
    def line(framework, n, p99):
        return {"part": "adhoc", "point": "c=8 rate=1000", "kind": "trial", "framework": framework, "workload": "db", "connections": 8, "trial": n,
                "driver": "native", "rps": 999.0, "requests": 4995, "errors": {"status": 0}, "profile": "open",
                "rate": 1000, "target_rate": 1000, "achieved_rate": 999.0,
                "latency_us": {"p50": 300.0, "p99": p99}, "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0,
                "flags": [], "notes": []}
    data = summary.summarize({}, [line("a", n, 800.0 + n) for n in (1, 2, 3)] + [line("b", n, 4000.0) for n in (1, 2, 3)])
    page = html.render(data)
    assert "db at c=8 rate=1000: <b>a</b> leads with p99 0.802 ms at the achieved rate" in page
    assert 'aria-label="p99 at the achieved rate, c=8 rate=1000"' in page
    assert "latency at the achieved rate: latency percentiles" in page


def _first_point(data: dict) -> dict:
    return data["workloads"][0]["points"][0]


def test_at_a_glance_names_no_noisy_or_bimodal_leader_and_says_why():
    data = _summary()
    beta = next(r for r in _first_point(data)["results"] if r["framework"] == "beta")
    beta["flags"], beta["rps"]["cv"] = ["noisy"], 0.123
    first = _lead(html.render(data)).split("</li>")[0]
    assert "plaintext at c=16: no leader named: the first place holds Beta noisy (trials vary 12%)" in first
    assert "leads" not in first and "the last" not in first


def test_at_a_glance_reads_a_shared_first_place_as_an_overlap_group_and_gives_the_ratio_its_interval():
    data = _summary()
    data["workloads"][0]["points"].pop(0)  # c=64: beta and alpha overlap
    first = _lead(html.render(data)).split("</li>")[0]
    assert ("plaintext at c=64: <b>Beta</b> and <b>Alpha</b> lead as one overlap group (their intervals overlap, "
            "so their order is not known), 51.8k req/s, 51.7k req/s") in first
    # 51,758 / 6,401 with [50,715 / 6,479, 52,515 / 6,368]: the digits those intervals support.
    assert "; 8.1&times; [7.8-8.2] the last, Gamma" in first


def test_a_point_without_a_valid_answer_renders_a_note_not_a_chart():
    data = _summary()
    point = data["workloads"][0]["points"][0]
    for result in point["results"]:
        result["latency_us"] = dict.fromkeys(result["latency_us"])
    assert "no latency: no valid answer" in html.render(data)
