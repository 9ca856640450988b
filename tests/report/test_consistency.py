"""The figures of a re-run against a run, on summaries built by hand."""

from webshootout.report import consistency


def _summary(rows: dict[str, tuple[float, float, float]], workload: str = "json") -> dict:
    results = [{"framework": name, "ranking": {"metric": "rps", "value": v, "low": lo, "high": hi}}
               for name, (lo, v, hi) in rows.items()]
    return {"workloads": [{"workload": workload, "points": [{"label": "c=64", "results": results}]}]}


def test_disjoint_rows_medians_inside_and_pairs_in_opposite_order_are_counted():
    first = _summary({"a": (100, 110, 120), "b": (200, 210, 220), "c": (300, 310, 320)})
    # a lands inside; b misses its first interval; c's median is outside yet the intervals overlap; and
    # b is now called faster than c where the first run called it slower.
    second = _summary({"a": (105, 112, 118), "b": (400, 410, 420), "c": (315, 325, 330)})
    found = consistency.consistency(first, second)
    assert found["rows"] == 3 and found["disjoint"] == ["json c=64 b"] and found["inside"] == 1
    assert found["pairs_called"] == 3 and found["pairs_opposite"] == 1
    assert "1 of 3 rows" in consistency.describe(found) and "1 in opposite order" in consistency.describe(found)
    # Widths in percent of the median: 20/110, 20/210, 20/310 (median 9.5 %); 13/112, 20/410, 15/325 (4.9 %).
    assert found["width_percent"] == [9.5, 4.9]
    assert "whose median width is 9.5 % of the median (B's: 4.9 %)" in consistency.describe(found)


def test_rows_ranked_on_latency_or_in_one_run_only_are_left_out():
    first = _summary({"a": (100, 110, 120), "b": (1, 2, 3)})
    first["workloads"][0]["points"][0]["results"][1]["ranking"]["metric"] = "p99_us"
    second = _summary({"a": (100, 110, 120), "z": (1, 2, 3)})
    found = consistency.consistency(first, second)
    assert found["rows"] == 1 and found["pairs_called"] == 0
    assert consistency.describe(consistency.consistency(first, _summary({}))) == \
        "no closed-loop row is in both runs"
