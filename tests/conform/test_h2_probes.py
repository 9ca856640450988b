"""Every HTTP/2 probe against a strict h2c server of ours (it must pass) and against one with the flaw the
probe is there to catch (it must not): no probe passes by default."""

from pathlib import Path

import pytest

from webshootout.conform import catalog, runner
from webshootout.conform.wire import Limits

# The flaw (fake_h2_server.py) each probe must catch. A new probe without one fails test_every_h2_probe_has_a_flaw.
FLAW_FOR = {
    "h2-settings-enable-push-2": "lenient-settings", "h2-settings-window-too-big": "lenient-settings",
    "h2-settings-frame-size-small": "lenient-settings", "h2-settings-ack-payload": "lenient-frames",
    "h2-window-update-zero": "lenient-window", "h2-window-overflow": "lenient-window",
    "h2-header-uppercase": "lenient-headers", "h2-header-connection": "lenient-headers",
    "h2-header-te-gzip": "lenient-headers", "h2-pseudo-after-regular": "lenient-headers",
    "h2-missing-path": "lenient-headers", "h2-split-tiny-frames": "no-continuation",
    "h2-settings-flood": "unbounded-settings", "h2-data-over-window": "no-flow-control",
    "h2-continuation-flood": "unbounded-continuation", "h2-rapid-reset": "work-after-reset",
}
NAMES = [p.name for p in catalog.PROBES if p.family == "h2"]
# Rules that fail whatever the level: memory grown with a flood, a second client kept waiting.
OUTRIGHT = {"h2-continuation-flood", "h2-rapid-reset"}
# A window ignored and a window granted back look the same from outside: the rule warns, whatever the level.
WARN = {"h2-data-over-window"}


def _finding(name: str, server):
    finding, seen = runner.probe_once(catalog.BY_NAME[name], server, Limits())
    return finding, f"{finding}\nsent {seen.sent[:300]!r}\ngot {seen.received[:300]!r}"


def test_every_h2_probe_has_a_flaw():
    assert sorted(set(NAMES) ^ set(FLAW_FOR)) == []


@pytest.mark.parametrize("name", NAMES)
def test_a_strict_h2_server_passes(h2_servers, name):
    finding, shown = _finding(name, h2_servers())
    assert finding.grade == "pass", shown


@pytest.mark.parametrize("name", NAMES)
def test_an_h2_server_with_the_flaw_does_not(h2_servers, name):
    probe = catalog.BY_NAME[name]
    finding, shown = _finding(name, h2_servers(FLAW_FOR[name]))
    expected = "warn" if name in WARN else "fail" if probe.level == "MUST" or name in OUTRIGHT else "warn"
    assert finding.grade == expected, shown


def test_the_docs_name_every_h2_probe():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "conform.md").read_text()
    assert [name for name in NAMES if f"`{name}`" not in docs] == []
