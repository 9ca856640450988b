"""The tables every report renders: which interval they name, how open-loop points are compared, what
the notes under them spell out."""

import json

from schemas import assert_valid_summary
from webshootout.report import summary, tables, terminal


def _line(framework, trial, rps, **extra):
    rate = extra.get("rate")
    label = {"part": "adhoc", "point": "c=8" + (f" rate={rate:g}" if rate is not None else ""),
             "profile": extra.get("mode", "closed")}
    return {**label, "kind": "trial", "framework": framework, "workload": "db", "connections": 8, "trial": trial,
            "driver": "native", "rps": rps, "requests": int(rps * 5), "errors": {"status": 0},
            "latency_us": {"p50": 100.0, "p99": 900.0}, "server_cpu_percent": 50.0, "server_rss_peak_mb": 10.0,
            "flags": [], "notes": [], **extra}


def _tables(lines, meta=None):
    (workload,) = summary.summarize(meta or {}, lines)["workloads"]
    return tables.main_tables(workload)


def test_three_trials_are_called_a_min_max_range_ten_a_95_percent_interval():
    (three,) = _tables([_line("a", n, 1000.0 + n) for n in (1, 2, 3)])
    assert three.header[4] == "min-max" and "95% CI" not in three.header
    assert any("min-max (3 trials)" in note and "75 %" in note for note in three.notes)
    (ten,) = _tables([_line("a", n, 1000.0 + n) for n in range(1, 11)])
    assert ten.header[4] == "95% CI"
    assert any(note.startswith("95% CI (10 trials): the order-statistic") and "97.9 %" in note for note in ten.notes)


def test_open_loop_table_ranks_on_p99_and_closed_loop_latency_is_named():
    def open_line(framework, n, p99):
        return _line(framework, n, 999.0, profile="open", mode="open", rate=1000, target_rate=1000,
                     achieved_rate=999.0, latency_us={"p50": 100.0, "p99": p99})
    lines = [open_line("slowtail", n, 9000.0) for n in (1, 2, 3)] + [open_line("steady", n, 800.0) for n in (1, 2, 3)]
    lines += [_line("steady", n, 5000.0) for n in (1, 2, 3)]
    closed, opened = _tables(lines)
    assert "closed-loop latency" in closed.title
    assert "p99 latency at the achieved rate" in opened.title
    assert opened.header[:7] == ("rank", "framework", "load", "target req/s", "achieved req/s", "p99 ms", "p99 min-max")
    assert [(row[0], row[1], row[5]) for row in opened.rows] == [("1st", "steady", "0.800"), ("2nd", "slowtail", "9.00")]


def test_unranked_rows_come_last_with_their_reason():
    meta = {"frameworks": {"base": {"kind": "baseline"}, "a": {"kind": "micro"}}}
    lines = [_line("base", n, 9000.0) for n in (1, 2, 3)] + [_line("a", n, 1000.0) for n in (1, 2, 3)]
    lines += [_line("b", n, 2000.0, errors={"status": 4}) for n in (1, 2, 3)]
    lines += [_line("sqlite", n, 3000.0, outside_contract="counts in SQLite") for n in (1, 2, 3)]
    (table,) = _tables(lines, meta)
    assert [(row[0], row[1]) for row in table.rows] == [("1st", "a"), ("ceiling", "base"), ("flagged", "b"),
                                                        ("apart", "sqlite")]
    assert "flagged, not ranked: b at c=8: errors: 12 failed requests (status 12)" in table.notes
    assert "apart, outside the contract and not ranked: sqlite at c=8: counts in SQLite" in table.notes
    assert any(note.startswith("ceiling: base at c=8 is the baseline") for note in table.notes)


def test_memory_method_names_the_column_and_extras_show_only_what_lines_carry():
    plain = [_line("a", n, 1000.0) for n in (1, 2, 3)]
    (table,) = _tables(plain)
    assert "RSS MB" in table.header and not any(note.startswith("mem MB") for note in table.notes)
    (workload,) = summary.summarize({}, plain)["workloads"]
    assert tables.extras(workload) is None
    newer = [_line("a", n, 1000.0, server_memory_method="cgroup v2 memory.current", connect_s=0.25,
                   warmup_curve=[100.0, 800.0, 1000.0]) for n in (1, 2, 3)]
    (table,) = _tables(newer)
    assert "mem MB" in table.header and "mem MB: peak server memory, measured as cgroup v2 memory.current" in table.notes
    (workload,) = summary.summarize({}, newer)["workloads"]
    extra = tables.extras(workload)
    assert extra.header == ("framework", "load", "connect s", "warm-up req/s")
    # 100, 800, 1000 of 1000 on the 8 levels 0..7: round(0.7) = 1, round(5.6) = 6, 7.
    assert extra.rows == [("a", "c=8", "0.25", "3 s ▂▇█ 1,000 max")]
    assert "0.25" in terminal.render(summary.summarize({}, newer))


def test_the_warm_up_shown_is_the_points_not_the_median_trials():
    # As `shootout run` writes them: the first trial warmed up until the server was steady, the later ones
    # for a fraction of a second (no whole second, no curve); the median req/s is trial 2's.
    lines = [_line("jit", 1, 900.0, warmup_s=7.05, warmup_curve=[300.0, 700.0, 900.0, 900.0, 910.0, 900.0, 905.0]),
             _line("jit", 2, 1000.0, warmup_s=0.25, warmup_curve=[]),
             _line("jit", 3, 1100.0, warmup_s=0.25, warmup_curve=[]),
             _line("aot", 1, 2000.0, warmup_s=0.25, warmup_curve=[]),
             _line("aot", 2, 2000.0, warmup_s=0.25, warmup_curve=[])]
    (workload,) = summary.summarize({}, lines)["workloads"]
    rows = {row[0]: row for row in tables.extras(workload).rows}
    assert rows["jit"][2:] == ("7.05", "7 s ▃▆█████ 910 max")
    assert rows["aot"][2:] == ("0.25", "-")
    assert any(note.startswith("warm-up: the one before the point's first trial") for note in tables.extras(workload).notes)


def test_tls_points_show_what_was_negotiated_and_the_handshakes_of_all_trials():
    def over_tls(n, p50):
        tls = {"version": "TLSv1_3", "cipher": "TLS13_AES_128_GCM_SHA256", "alpn": "h2", "handshakes": 64,
               "resumed": 0, "handshake_ms": {"mean": 1.0, "p50": p50, "p99": 4.0, "max": 9.0}}
        return _line("a", n, 1000.0, tls=True, transport={"http": "2", "streams": 1, "tls": tls})
    lines = [over_tls(n, p50) for n, p50 in ((1, 1.0), (2, 1.5), (3, 3.0))] + [_line("b", n, 900.0) for n in (1, 2)]
    data = summary.summarize({}, lines)
    assert_valid_summary(json.loads(summary.to_json(data)))
    (workload,) = data["workloads"]
    extra = tables.extras(workload)
    assert extra.title.endswith(", TLS") and extra.header[-1] == "TLS: negotiated, handshakes"
    rows = {row[0]: row[-1] for row in extra.rows}
    assert rows == {"a": "TLSv1_3 TLS13_AES_128_GCM_SHA256 h2; 192 handshakes (0 resumed), 1.5/4 ms", "b": "-"}
    assert any(note.startswith("TLS: version, cipher and ALPN") for note in extra.notes)


def test_tls_from_h2load_has_no_handshake_counts_and_none_are_made_up():
    tls = {"version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384", "alpn": "h2", "handshakes": None,
           "resumed": None, "handshake_ms": None}
    lines = [_line("a", n, 1000.0, tls=True, transport={"http": "2", "streams": 2, "tls": tls}) for n in (1, 2)]
    data = summary.summarize({}, lines)
    assert_valid_summary(json.loads(summary.to_json(data)))
    (workload,) = data["workloads"]
    assert workload["points"][0]["results"][0]["tls"]["handshakes"] is None
    assert {row[0]: row[-1] for row in tables.extras(workload).rows} == {"a": "TLSv1.3 TLS_AES_256_GCM_SHA384 h2"}


def test_bytes_per_answer_share_of_the_ceiling_and_reconnects_show_where_they_mean_something():
    def line(workload, framework, n, rps, **extra):
        return {**_line(framework, n, rps, **extra), "workload": workload}
    comp = [line("json-comp", "small", n, 1000.0, bytes_read=300 * 5000, responses_total=5000) for n in (1, 2, 3)]
    waits = [line("async", "waits", n, 400.0, connections=8) for n in (1, 2, 3)]
    again = [line("json", "re", n, 900.0, point="c=8 req/conn=10", reconnects=450, requests_per_connection=10)
             for n in (1, 2, 3)]
    data = summary.summarize({}, comp + waits + again)
    assert_valid_summary(json.loads(summary.to_json(data)))
    extra = {w["workload"]: tables.extras(w) for w in data["workloads"]}
    assert extra["json-comp"].header[-1] == "bytes/answer" and extra["json-comp"].rows[0][-1] == "300"
    # async's most at 8 connections is 8 / 15 ms = 533 answers a second: 400 is 75 % of it.
    assert extra["async"].header[-1] == "of ceiling" and extra["async"].rows[0][-1] == "75 %"
    assert extra["json"].header[-1] == "reconnects" and extra["json"].rows[0][-1] == "1,350"
    # json's answers have a byte count too, but only json-comp's workload shows it.
    assert "bytes/answer" not in extra["json"].header


def test_a_mix_shows_each_kind_of_request_with_its_latency():
    def step(name, requests, p50, p99):
        return {"name": name, "sent": requests, "done": requests, "failed": 0, "unanswered": 0, "requests": requests,
                "errors": 0, "latency_us": {"p50": p50, "p99": p99}}
    lines = [{**_line("api", n, 900.0, mix=[step("get", 70 * n, 800.0, 2000.0), step("create", 5 * n, 1500.0 * n, 4000.0)]),
              "workload": "crud"} for n in (1, 2, 3)]
    data = summary.summarize({}, lines)
    assert_valid_summary(json.loads(summary.to_json(data)))
    (workload,) = data["workloads"]
    mix = workload["points"][0]["results"][0]["mix"]
    assert [(s["name"], s["share"]) for s in mix] == [("get", 0.9333), ("create", 0.0667)]
    extra = tables.extras(workload)
    assert extra.header[-1] == "per request kind: p50/p99 ms"
    assert extra.rows[0][-1] == "get 0.800/2.00, create 3.00/4.00"  # the medians of the three trials
    assert any(note.startswith("per request kind") for note in extra.notes)


def test_a_streaming_call_shows_its_messages_a_second_and_a_unary_one_does_not():
    stream = [{**_line("streamer", n, 900.0 + n, messages=10, point="c=64 messages=10 h2c"), "workload": "grpc-stream"}
              for n in (1, 2, 3)]
    unary = [{**_line("unary", n, 900.0, point="c=64 h2c"), "workload": "grpc-unary"} for n in (1, 2, 3)]
    data = summary.summarize({}, stream + unary)
    assert_valid_summary(json.loads(summary.to_json(data)))
    extra = {w["workload"]: tables.extras(w) for w in data["workloads"]}
    assert extra["grpc-stream"].header[-1] == "messages/s" and extra["grpc-stream"].rows[0][-1] == "9,020"
    assert any(note.startswith("messages/s") for note in extra["grpc-stream"].notes)
    assert extra["grpc-unary"] is None or "messages/s" not in extra["grpc-unary"].header
