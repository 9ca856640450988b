"""Number formats shared by every report, so a value reads the same in the terminal, markdown and HTML."""

from __future__ import annotations

import math

from .result import BIMODAL_GAP

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
    """To the nearest percent: a CV from a handful of trials is itself known to no better."""
    return f"{100 * value:.0f}%"


def place(value: float, low: float | None = None, high: float | None = None) -> float:
    """The decimal place an interval supports: that of the leading digit of its half-width, so a median known
    to ±20 % keeps 2-3 significant digits and one known to ±2 % one more; never fewer than two of the
    value's own digits, and three where there is no interval (one trial)."""
    top = 10.0 ** math.floor(math.log10(abs(value))) if value else 1.0
    if low is None or high is None or not high > low:
        return top / 100
    return min(10.0 ** math.floor(math.log10((high - low) / 2)), top / 10)


def at(value: float | None, where: float, centre: float | None = None) -> str:
    """The value rounded to the place `where`; in thousands ("229k") where the centre (the value itself by
    default) is 10,000 or more or the place is 1,000 or more, so an interval reads in its centre's unit."""
    if value is None:
        return "-"
    rounded = round(value / where) * where
    if abs(value if centre is None else centre) >= 10_000 or where >= 1000:
        return f"{rounded / 1000:,.{max(0, 3 - round(math.log10(where)))}f}k"
    return f"{rounded:,.{max(0, -round(math.log10(where)))}f}"


def measured(value: float | None, low: float | None = None, high: float | None = None) -> str:
    """A centre with only the digits its interval supports: 228,754 req/s known to ±20 % reads 230k."""
    return "-" if value is None else at(value, place(value, low, high))


def span(low: float, high: float, value: float) -> str:
    """An interval at the place and in the unit of its centre: 180k-270k."""
    where = place(value, low, high)
    return f"{at(low, where, value)}-{at(high, where, value)}"


SPARKS = "▁▂▃▄▅▆▇█"


def sparkline(values: list[float]) -> str:
    """One block per value, scaled from zero to the largest, so a flat curve reads as full height."""
    top = max(values, default=0)
    if top <= 0:
        return SPARKS[0] * len(values)
    return "".join(SPARKS[min(len(SPARKS) - 1, int(v / top * (len(SPARKS) - 1) + 0.5))] for v in values)


FLAG_TEXTS = {
    "client-bound": "client-bound: the load generator used 90 % or more of its CPUs, so the number measures "
                    "the generator, not the server",
    "no-responses": "no-responses: a trial got no valid answer at all",
    "noisy": "noisy: req/s varies more than 5 % (coefficient of variation) across trials",
    "cookieless": "cookieless: driven without cookies, every request a new visitor",
    "cpus-far": "cpus-far: in a trial the server's and the load generator's CPUs were far apart (a cache line took "
                "over twice the run's best round trip between them), which costs a loopback exchange 10-15 % "
                "here; the host moved them (docs/method.md)",
    "jit-compiling": "jit-compiling: the server's JIT compiler used over 1 % of a CPU during a trial even after "
                     "it was run again four times, so the trial measured compiling code as well (src/webshootout/"
                     "jit.py)",
    "no-pipelining": "no-pipelining: pipelined requests after the first of a batch were never answered; the "
                     "stack cannot pipeline, which says nothing of its speed",
    "connections-short": "connections-short: in a trial fewer connections opened by the connect deadline than the "
                         "point asks for; it ran with those (connect phase in the table below)",
}


def flag_text(flag: str, result: dict) -> str:
    """A flag spelled out, with the numbers behind it where the row has them."""
    if flag == "errors":
        kinds = ", ".join(f"{kind} {n:,}" for kind, n in result["errors_by_kind"].items())
        apart = ("; connect: connections that failed to open in the window, not failed requests"
                 if result.get("connect") and "connect" in result["errors_by_kind"] else "")
        return f"errors: {result['errors']:,} failed requests" + (f" ({kinds}{apart})" if kinds else "")
    if flag == "bimodal":
        low, high = result["rps"]["groups"]
        return (f"bimodal: the trials fall in two groups, {count(low[0])}-{count(low[1])} req/s ({low[2]} trials) and "
                f"{count(high[0])}-{count(high[1])} ({high[2]}), more than {BIMODAL_GAP * 100:.0f} % of the median apart: the machine served "
                "this row in two states, so its interval holds both (docs/method.md)")
    if flag == "below-rate":
        return (f"below-rate: achieved {count(result['achieved_rate'])} of the {count(result['target_rate'])} "
                "req/s asked (under 99 %): the latency is that of an overloaded system")
    if flag == "connections-short" and result.get("connect"):
        phase = result["connect"]
        return (f"connections-short: the server held {phase['opened']:,} of the {phase['connections']:,} "
                "connections asked by the connect deadline (fewest of the trials); the point ran with those")
    if flag == "closes-connections":
        keepalive = result["keepalive"]
        return (f"closes connections: {keepalive['requests']} requests at verification took "
                f"{keepalive['connections']} TCP connections")
    return FLAG_TEXTS.get(flag, flag)


def connect_phase(phase: dict) -> str:
    """A row's connect phase: "10,000 open in 2.1 s", with what failed on the way in all its trials."""
    opened = (f"{phase['opened']:,}" if phase["opened"] == phase["connections"]
              else f"{phase['opened']:,} of {phase['connections']:,}")
    failures = [f"{phase[key]:,} {name}" for key, name in (("refused", "refused"), ("timed_out", "timed out"),
                                                            ("failed", "failed"), ("retried", "retried"),
                                                            ("syn_retransmitted", "SYN resent")) if phase[key]]
    seconds = f"{phase['seconds']:.2g}" if phase["seconds"] < 10 else f"{phase['seconds']:,.0f}"
    return f"{opened} open in {seconds} s" + (f" ({', '.join(failures)})" if failures else "")


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


def pinning_text(run: dict) -> str:
    pinning = run["pinning"]
    if run.get("topology"):
        return "each role on its own host, pinned to the CPUs under Hosts"
    return (f"server and PostgreSQL on CPUs {pinning.get('server_cpus')}, "
            f"load generator on CPUs {pinning.get('load_cpus')}")


def speed_text(run: dict) -> str | None:
    """The machine's speed over the run, as its probes beside the trials measured it (system/speed.py)."""
    speed = run.get("machine_speed")
    if not speed:
        return None
    return (f"{speed['median']:.2f} M probe steps/s median, {speed['min']:.2f}-{speed['max']:.2f} over "
            f"{speed['probes']} probes beside the trials (a fixed mix of work on the load CPU; slower phases of "
            f"the host show as lower values)")


# Measured (docs/method.md, What the machine's phases explain): two quick runs of one commit back to back moved
# every workload together, by 7 % (issue 49) and 4.6 % (2026-11-27), which no interval from one run can hold.
BETWEEN_RUNS = ("the intervals hold this run's trials; between runs on one machine every row's req/s moved together "
                "by up to 7 %, so compare stacks within a run and read absolute req/s to about that (docs/method.md)")


def adjustment_text(run: dict) -> str | None:
    """Which workloads' req/s the report moved to the run's median CPU round trip (report/phases.py)."""
    used = [s for s in run.get("link_adjustment") or () if s["used"]]
    if not used:
        return None
    each = ", ".join(f"{s['workload']} ({s['variance_removed']:.0%})" for s in used)
    return (f"req/s of {each} moved to the run's median round trip between the server and load CPUs, by the slope "
            f"their trials showed (in brackets: the share of a held-out row's variance it removed); other "
            f"workloads as measured; results.jsonl keeps every measured value (docs/method.md)")


def topology_lines(run: dict) -> list[str]:
    """With a hosts file: one line per role and per measured link; nothing for a one-machine run."""
    topology = run.get("topology")
    if not topology:
        return []
    lines = [f"{role}: {h['ssh']} at {h['address']}, CPUs {','.join(map(str, h['cpus']))} of "
             f"{h.get('cpus_online')}, Linux {h.get('kernel')}, {h.get('cpu_model')}"
             + (f", {h['os']}, {h['python']}" if h.get("os") else "")
             for role, h in topology["roles"].items()]
    lines += [f"link {link['client']} -> {link['server']}: round trip median {link['rtt_median_us']:.0f} us, "
              f"{link['throughput_mbit_s']:,.0f} Mbit/s" for link in topology["links"]]
    return lines
