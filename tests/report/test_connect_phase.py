"""The connect phase in the reports: its own cell for many-connection points, never a request error."""


from schemas import assert_valid_summary
from webshootout.report import summary, tables


def _phase(opened=10_000, seconds=2.1, **failures):
    counts = {"refused": 0, "timed_out": 0, "failed": 0, "retried": 0, "syn_retransmitted": 0, **failures}
    return {"connections": 10_000, "opened": opened, "seconds": seconds, "per_second": opened / seconds,
            "complete": opened == 10_000, "deadline_s": 60.0, "in_progress": 64, **counts}


def _line(framework, trial, driver="native", errors=None, **extra):
    return {"part": "ws", "point": "c=10000", "profile": "closed", "kind": "trial", "framework": framework,
            "workload": "websocket", "connections": 10_000, "trial": trial, "driver": driver, "rps": 50_000.0 + trial,
            "requests": 250_000, "errors": {"connect": 0, "timeout": 0, **(errors or {})},
            "latency_us": {"p50": 100.0, "p99": 900.0}, "server_cpu_percent": 90.0, "server_rss_peak_mb": 80.0,
            "flags": [], "notes": [], **extra}


def _workload(lines):
    data = summary.summarize({}, lines)
    assert_valid_summary(data)
    (workload,) = data["workloads"]
    return workload


def _result(workload, framework):
    return next(r for p in workload["points"] for r in p["results"] if r["framework"] == framework)


def test_the_connect_phase_is_a_cell_of_its_own_and_failed_connects_are_not_errors():
    lines = [_line("fast", n, connect=_phase(seconds=s), connect_s=s) for n, s in ((1, 2.0), (2, 2.1), (3, 2.4))]
    lines += [_line("slow", n, connect=_phase(seconds=40.0 + n, refused=3, retried=5, syn_retransmitted=900),
                    connect_s=40.0 + n, errors={"connect": 7}) for n in (1, 2, 3)]
    lines += [_line("timing-out", n, connect=_phase(), connect_s=2.0, errors={"timeout": 4}) for n in (1, 2, 3)]
    lines += [_line("wrk-driven", n, driver="wrk") for n in (1, 2, 3)]
    workload = _workload(lines)
    slow = _result(workload, "slow")
    assert "errors" not in slow["flags"] and slow["errors"] == 0 and slow["errors_by_kind"] == {"connect": 21}
    assert slow["connect"]["seconds"] == 42.0 and slow["connect"]["refused"] == 9
    timing_out = _result(workload, "timing-out")
    assert "errors" in timing_out["flags"] and timing_out["errors"] == 12, "a request's timeout is a request error"
    rows = {row[0]: row for row in tables.extras(workload).rows}
    assert rows["fast"][2] == "10,000 open in 2.1 s"
    assert rows["slow"][2] == "10,000 open in 42 s (9 refused, 15 retried, 2,700 SYN resent)"
    assert rows["wrk-driven"][2] == "not separated (wrk)"
    assert tables.extras(workload).header[2] == "connect phase"
    (table,) = tables.main_tables(workload)
    assert [row[1] for row in table.rows if row[0] == "flagged"] == ["timing-out"]


def test_a_point_run_with_fewer_connections_than_asked_is_flagged_not_ranked():
    lines = [_line("short", n, connect=_phase(opened=4_096 + n, seconds=60.0), connect_s=60.0) for n in (1, 2, 3)]
    workload = _workload(lines)
    short = _result(workload, "short")
    assert "connections-short" in short["flags"] and short["standing"] == "flagged"
    assert tables.extras(workload).rows[0][2] == "4,097 of 10,000 open in 60 s"
    (table,) = tables.main_tables(workload)
    assert any(note.startswith("flagged, not ranked: short at c=10000: connections-short: the server held 4,097 of "
                               "the 10,000 connections asked") for note in table.notes)


def test_a_connection_per_request_counts_its_failed_connects_as_failed_requests():
    lines = [_line("closing", n, keepalive=False, errors={"connect": 2}) for n in (1, 2, 3)]
    closing = _result(_workload(lines), "closing")
    assert "errors" in closing["flags"] and closing["errors"] == 6
