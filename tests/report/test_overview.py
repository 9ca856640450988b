"""The TechEmpower overview of a tfb run: best point per stack and test type, in every report, and only there."""

import json

from schemas import assert_valid_summary
from webshootout.report import html, markdown, overview, summary, terminal


def _line(framework, workload, connections, rps, trial=1, flags=(), **axis):
    label = " ".join([f"c={connections}", *(f"{k}={v}" for k, v in axis.items())])
    return {"kind": "trial", "part": "p", "point": label, "profile": "closed", "framework": framework,
            "display": framework.title(), "workload": workload, "connections": connections, "trial": trial,
            "driver": "native", "rps": rps, "requests": int(rps), "errors": {"status": 0},
            "latency_us": {"p50": 1.0, "p99": 2.0}, "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0,
            "flags": list(flags), "notes": [], "queries": axis.get("queries"), "count": axis.get("count")}


def _run(suite):
    lines = [_line("alpha", "json", 16, 1000.0), _line("alpha", "json", 512, 3000.0),
             _line("beta", "json", 16, 2000.0), _line("beta", "json", 512, 900.0, flags=["client-bound"]),
             _line("alpha", "queries", 512, 9000.0, queries=1), _line("alpha", "queries", 512, 700.0, queries=20),
             _line("alpha", "cached", 512, 5000.0, count=100), _line("beta", "fortunes", 64, 1234.0)]
    meta = {"command": f"./shootout run --suite {suite}", "settings": {"suite": {"name": suite} if suite else None}}
    return summary.summarize(meta, lines)


def test_each_cell_is_the_best_counted_point_at_the_heaviest_level():
    best = overview.best_points(_run("tfb"))
    assert best["alpha"]["json"][:2] == (3000.0, "c=512")
    assert best["beta"]["json"][:2] == (2000.0, "c=16")  # its flagged (client-bound) point is no one's best
    assert best["alpha"]["queries"][:2] == (700.0, "c=512 queries=20")  # their headline level, not 1 query
    assert best["alpha"]["cached"][:2] == (5000.0, "c=512 count=100")


def test_the_table_has_a_column_per_test_type_and_says_its_conditions():
    found = overview.table(_run("tfb"))
    assert found.header == ("framework", "JSON", "single query", "multiple queries", "cached queries", "fortunes",
                            "data updates", "plaintext")
    assert found.rows == [("Alpha", "3,000", "-", "700", "5,000", "-", "-", "-"),
                          ("Beta", "2,000", "-", "-", "-", "1,230", "-", "-")]  # one trial: three digits
    assert "queries at 20 queries, cached at 100 rows" in found.notes[0]
    assert "loopback" in found.notes[1]


def test_every_report_shows_it_at_the_top_of_a_tfb_run_only():
    data = _run("tfb")
    assert_valid_summary(json.loads(summary.to_json(data)))
    assert data["run"]["suite"] == "tfb"
    text = terminal.render(data)
    assert text.index("TechEmpower overview") < text.index("== json ==")
    page = markdown.render(data)
    assert page.index("**TechEmpower overview") < page.index("## Frameworks") < page.index("## json")
    assert html.render(data).index("TechEmpower overview") < html.render(data).index('<h2 id="json">')
    for other in (_run("full"), _run(None)):
        assert overview.table(other) is None
        assert "TechEmpower overview" not in terminal.render(other) + markdown.render(other) + html.render(other)


def test_queries_and_count_points_sort_by_number_not_text():
    lines = [_line("alpha", "updates", 512, 100.0, queries=n) for n in (20, 5, 10, 1, 15)]
    data = summary.summarize({}, lines)
    assert [p["label"] for p in data["workloads"][0]["points"]] == [
        "c=512 queries=1", "c=512 queries=5", "c=512 queries=10", "c=512 queries=15", "c=512 queries=20"]


def test_rows_per_request_form_a_chart_series():
    lines = [_line(f, "updates", 512, rps, queries=n) for f, rps in (("alpha", 100.0), ("beta", 80.0))
             for n in (1, 5, 20)]
    (workload,) = summary.summarize({"command": "x"}, lines)["workloads"]
    (series,) = summary.sweeps(workload)
    assert series["axis"] == "queries" and [p["queries"] for p in series["points"]] == [1, 5, 20]
    assert "req/s against queries per request" in html.render(summary.summarize({"command": "x"}, lines))
