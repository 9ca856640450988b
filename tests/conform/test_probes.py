"""Every probe against a strict server (it must pass) and against a server with the one flaw the probe is
there to catch (it must not): no probe passes by default."""

from pathlib import Path

import pytest

from webshootout.conform import catalog, runner
from webshootout.conform.probe import HTTP2
from webshootout.conform.wire import Limits

# The flaw (fake_server.py) each probe must catch. A new probe without one fails test_every_probe_has_a_flaw.
FLAW_FOR = {
    "cl-te": "cl-te", "te-cl": "cl-te", "cl-cl-different": "first-cl", "cl-list-different": "first-cl",
    "cl-plus": "lenient-cl", "cl-negative": "lenient-cl", "cl-hex": "lenient-cl", "cl-overflow": "lenient-cl",
    "cl-non-digit": "lenient-cl", "te-unknown": "lenient-te", "te-identity": "lenient-te",
    "te-not-final": "lenient-te", "te-chunked-typo": "lenient-te", "te-vertical-tab": "ctl",
    "te-two-lines": "te-first-line", "te-http10": "te-http10", "te-space-before-colon": "space-before-colon",
    "chunk-size-invalid": "lenient-chunk-size", "chunk-size-negative": "lenient-chunk-size",
    "chunk-size-0x": "lenient-chunk-size", "chunk-size-overflow": "lenient-chunk-size",
    "chunk-size-space": "lenient-chunk-size", "chunk-size-bare-lf": "bare-lf-chunk",
    "chunk-data-bare-lf": "bare-lf-chunk", "chunk-ext-bare-lf": "bare-lf-chunk",
    "chunk-data-overrun": "chunk-overrun", "chunk-ext-no-name": "chunk-ext",
    "space-before-colon": "space-before-colon", "tab-before-colon": "space-before-colon", "obs-fold": "obs-fold",
    "nul-in-value": "ctl", "cr-in-value": "ctl", "ctl-in-value": "ctl", "del-in-value": "ctl",
    "field-no-colon": "field-grammar", "field-name-invalid": "field-grammar", "field-name-empty": "field-grammar",
    "bare-cr-line-end": "bare-cr",
    "request-line-1mib": "no-limits", "field-value-1mib": "no-limits", "field-section-1mib": "no-limits",
    "fields-10000": "no-limits", "chunk-ext-1mib": "no-limits",
    "byte-by-byte": "one-read", "head-split-at-blank-line": "one-read", "chunked-body-byte-by-byte": "one-read",
    "pipeline-one-write": "no-pipeline", "pipeline-split": "one-read", "slowloris": "no-header-timeout",
    "missing-host": "host", "two-hosts": "host", "host-invalid": "host", "http10-no-host": "http10-host",
    "http10-close": "http10-keep", "http10-keep-alive": "http10-keep", "connection-close": "ignore-close",
    "head-no-body": "head-body", "absolute-form": "absolute-form", "options-star": "options-star",
    "expect-100-continue": "no-100", "request-line-double-space": "lenient-request-line",
    "version-lowercase": "lenient-request-line", "version-2-over-h1": "lenient-request-line",
    "target-fragment": "lenient-request-line", "target-ctl": "lenient-request-line",
}
# Slowloris at a test's pace: the strict server cuts a head after 2 s.
LIMITS = Limits(slow_pass=3.0, slow_give_up=5.0, trickle=0.2)
NAMES = [probe.name for probe in catalog.PROBES if probe.family not in HTTP2]  # HTTP/2: test_h2_probes.py
OUTRIGHT = {"slowloris"}  # rules that fail whatever the level: a head never cut


def _finding(probe_name: str, server):
    finding, seen = runner.probe_once(catalog.BY_NAME[probe_name], server, LIMITS)
    return finding, f"{finding}\nsent {seen.sent[:300]!r}\ngot {seen.received[:300]!r}"


def test_every_probe_has_a_flaw():
    assert sorted(set(NAMES) - set(FLAW_FOR)) == []
    assert sorted(set(FLAW_FOR) - set(NAMES)) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_strict_server_passes(servers, name):
    finding, shown = _finding(name, servers())
    assert finding.grade == "pass", shown


@pytest.mark.parametrize("name", NAMES)
def test_a_strict_server_that_answers_before_reading_the_body_passes(servers, name):
    finding, shown = _finding(name, servers("lazy-body"))
    assert finding.grade == "pass", shown


@pytest.mark.parametrize("name", NAMES)
def test_a_server_with_the_flaw_does_not(servers, name):
    probe = catalog.BY_NAME[name]
    finding, shown = _finding(name, servers(FLAW_FOR[name]))
    expected = "fail" if probe.level == "MUST" or name in OUTRIGHT else "warn"
    assert finding.grade == expected, shown


def test_the_docs_name_every_probe():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "conform.md").read_text()
    assert [name for name in NAMES if f"`{name}`" not in docs] == []
