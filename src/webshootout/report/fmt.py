"""Number formats shared by every report, so a value reads the same in the terminal, markdown and HTML."""

from __future__ import annotations

PERCENTILE_NAMES = {"p50": "p50", "p75": "p75", "p90": "p90", "p99": "p99", "p99_9": "p99.9", "p99_99": "p99.99"}


def count(value: float | None) -> str:
    return "-" if value is None else f"{value:,.0f}"


def ms(us: float | None) -> str:
    """Latency in milliseconds with three significant digits (0.123, 1.23, 12.3, 123)."""
    if us is None:
        return "-"
    value = float(f"{us / 1000:.3g}")
    if value >= 100:
        return f"{value:,.0f}"
    if value >= 10:
        return f"{value:.1f}"
    return f"{value:.2f}" if value >= 1 else f"{value:.3f}"


def ratio(value: float | None) -> str:
    """A small ratio such as req/s per MB: one decimal below 10, whole numbers above."""
    return "-" if value is None else f"{value:.1f}" if value < 10 else f"{value:,.0f}"


def percent(value: float | None) -> str:
    return "-" if value is None else f"{value:.0f}"


def cv(value: float) -> str:
    return f"{100 * value:.1f}%"


def span(low: float, high: float) -> str:
    return f"{low:,.0f}-{high:,.0f}"


def flags(result: dict) -> str:
    return ",".join(result["flags"])


MAIN_HEADER = ("rank", "framework", "load", "req/s", "95% CI", "CV", "p50 ms", "p99 ms", "errors", "CPU %",
               "RSS MB", "req/CPU-s", "flags")


def main_row(point: dict, result: dict) -> tuple[str, ...]:
    """The row every table shows for one framework at one load point."""
    rps, lat = result["rps"], result["latency_us"]
    return (result["rank_label"], result["framework"], point["label"], count(rps["median"]), span(*rps["ci95"]),
            cv(rps["cv"]), ms(lat["p50"]), ms(lat["p99"]), count(result["errors"]),
            percent(result["server_cpu_percent"]), count(result["server_rss_peak_mb"]),
            count(result["requests_per_cpu_second"]), flags(result))


def not_measured_line(item: dict) -> str:
    what = item["framework"] + (f" {item['workload']}" if item.get("workload") else "")
    return f"{what}: {item['what']}: {item['reason']}"


def latency_note(workload: dict) -> str:
    """Says whether the percentiles were merged, because averaging them across trials would be wrong."""
    results = [r for p in workload["points"] for r in p["results"]]
    if all(r["latency_us"]["merged"] for r in results):
        return "latency: percentiles of the histograms of all trials merged"
    return ("latency: rows without histograms (wrk, ab) show the percentiles of their median-req/s trial; "
            "percentiles of different trials cannot be averaged")


def sustainable_lines(workload: dict) -> list[str]:
    """One line per rate sweep and framework: how fast it can go with p99 under the SLO."""
    return [f"{item['framework']} ({item['series']}): "
            + (f"{count(item['rate'])} req/s" if item["rate"] is not None else "none of the rates")
            + f" with p99 <= {item['slo_p99_ms']:g} ms" for item in workload.get("sustainable", [])]
