"""h2spec as the family "h2spec": its JUnit report read into one finding per case, and a real run of it
against our strict h2c server (installed from the Go module proxy the first time, as conform does)."""

import re
import subprocess

import pytest

from webshootout.conform import h2spec
from webshootout.conform.target import Target
from webshootout.console import say

REPORT = """<?xml version="1.0" encoding="UTF-8"?>
<testsuites>
  <testsuite name="6.5.2. Defined SETTINGS Parameters" package="http2/6.5.2" id="6.5.2" tests="3">
    <testcase package="http2/6.5.2" classname="SETTINGS_ENABLE_PUSH (0x2): Sends the value other than 0 or 1" time="0.01"></testcase>
    <testcase package="http2/6.5.2" classname="SETTINGS_INITIAL_WINDOW_SIZE (0x4): Sends the value above the maximum flow control window size" time="0.02">
      <error>GOAWAY Frame (Error Code: FLOW_CONTROL_ERROR)
Connection closed</error>
    </testcase>
    <testcase package="http2/6.5.2" classname="skipped one" time="0"><skipped/></testcase>
  </testsuite>
</testsuites>"""


def test_each_case_of_the_report_is_a_finding_named_by_its_section():
    cases = h2spec.parse(REPORT)
    assert [(e["name"], f.grade) for e, f in cases] == [
        ("h2spec-http2-6-5-2-1", "pass"), ("h2spec-http2-6-5-2-2", "fail"), ("h2spec-http2-6-5-2-3", "skip")]
    entry, failed = cases[1]
    assert failed.reason == "expected GOAWAY Frame (Error Code: FLOW_CONTROL_ERROR); got Connection closed"
    assert entry["section"] == "http2/6.5.2: 6.5.2. Defined SETTINGS Parameters" and entry["family"] == "h2spec"
    assert entry["what"].startswith("SETTINGS_INITIAL_WINDOW_SIZE")


def test_h2spec_runs_against_our_strict_server(h2_servers):
    program = h2spec.ensure(say)
    if program is None:
        pytest.skip("h2spec could not be installed here (see the log above)")
    cases, why = h2spec.run(program, h2_servers().target())
    assert why is None and len(cases) > 100
    passed = [f for _, f in cases if f.grade == "pass"]
    assert len(passed) > 0.9 * len(cases), [(f.probe, f.reason) for _, f in cases if f.grade != "pass"]


def test_bytes_a_server_sent_that_xml_cannot_hold_are_dropped_from_the_report():
    dirty = REPORT.replace("Connection closed", "Connection \x01closed\x1b[0m")
    assert h2spec.parse(dirty)[1][1].reason == "expected GOAWAY Frame (Error Code: FLOW_CONTROL_ERROR); got Connection closed[0m"


def _cases(program, *sections: str) -> int:
    listed = subprocess.run([str(program), "--dryrun", *sections], capture_output=True, text=True, timeout=30).stdout
    return sum(1 for line in listed.splitlines() if re.match(r"\s+\d+: ", line))


def test_the_sections_run_at_once_are_every_case_once():
    program = h2spec.ensure(say)
    if program is None:
        pytest.skip("h2spec could not be installed here (see the log above)")
    assert _cases(program) == sum(_cases(program, section) for section in h2spec.SECTIONS) == 145


FAKE = """#!/bin/sh
# A stand-in for h2spec: the section given first answers at once, any other never does.
report=$(echo "$@" | sed 's/.*-j \\([^ ]*\\).*/\\1/')
if [ "$1" = "http2/6.5.2" ]; then cat > "$report" <<'XML'
{report}
XML
else exec sleep 60; fi
"""


def test_a_section_past_the_deadline_is_named_and_stopped_while_the_others_count(tmp_path, monkeypatch):
    program = tmp_path / "h2spec"
    program.write_text(FAKE.replace("{report}", REPORT))
    program.chmod(0o755)
    # The one that hangs is waited for first: the one that answered meanwhile still counts.
    monkeypatch.setattr(h2spec, "SECTIONS", ("http2/5", "http2/6.5.2"))
    monkeypatch.setattr(h2spec, "RUN_TIMEOUT", 1.0)
    cases, why = h2spec.run(program, Target("127.0.0.1", 9, "/plaintext"))
    assert [f.grade for _, f in cases] == ["pass", "fail", "skip"]
    assert why == "http2/5: h2spec did not finish within 1 s"
    left = subprocess.run(["pgrep", "-f", "sleep 60"], capture_output=True, text=True).stdout.split()
    assert not left


def test_for_a_grpc_server_a_case_failed_for_want_of_an_answer_is_skipped_and_others_stand():
    refused = REPORT.replace("GOAWAY Frame (Error Code: FLOW_CONTROL_ERROR)\nConnection closed",
                             "DATA frame\nRST_STREAM Frame (length:4, flags:0x00, stream_id:1)")
    graded = [(f.grade, f.reason) for _, f in h2spec.calls_only(h2spec.parse(refused))]
    assert graded[1] == ("skip", "no answer to a request that is not a gRPC call: "
                                 "expected DATA frame; got RST_STREAM Frame (length:4, flags:0x00, stream_id:1)")
    assert [g for g, _ in graded] == ["pass", "skip", "skip"]
    assert [f.grade for _, f in h2spec.calls_only(h2spec.parse(REPORT))] == ["pass", "fail", "skip"]
