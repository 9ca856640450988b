"""The runner: a server a probe kills is the finding and is restarted; probes an id cannot take are skipped."""

from dataclasses import replace

from webshootout.conform import catalog, runner
from webshootout.conform.wire import Limits

from .servers import FakeServer


def test_a_server_that_dies_fails_the_probe_and_is_restarted_for_the_next():
    server = FakeServer("crash-long-line")
    try:
        died, _ = runner.probe_once(catalog.BY_NAME["field-value-1mib"], server, Limits())
        assert (died.grade, died.alive, died.reason) == ("fail", False, "the server died on it")
        assert server.starts == 2 and server.alive()
        after, _ = runner.probe_once(catalog.BY_NAME["byte-by-byte"], server, Limits())
        assert after.grade == "pass"
    finally:
        server.stop()


def test_a_server_that_stops_answering_fails_the_probe_and_is_restarted_for_the_next():
    server = FakeServer("wedge-long-line")
    try:
        wedged, _ = runner.probe_once(catalog.BY_NAME["field-value-1mib"], server, Limits())
        assert (wedged.grade, wedged.alive, wedged.serving) == ("fail", True, False)
        assert wedged.reason.startswith("the server stopped answering")
        assert server.starts == 2
        after, _ = runner.probe_once(catalog.BY_NAME["missing-host"], server, Limits())
        assert after.grade == "pass"
    finally:
        server.stop()


class _NoUpload(FakeServer):
    def target(self):
        return replace(super().target(), upload=None)


def test_a_probe_that_needs_a_workload_the_id_does_not_map_is_skipped():
    server = _NoUpload()
    try:
        finding, seen = runner.probe_once(catalog.BY_NAME["expect-100-continue"], server, Limits())
        assert (finding.grade, finding.reason, seen) == ("skip", "the id maps no workload that reads a body", None)
    finally:
        server.stop()


def test_a_server_that_is_gone_fails_without_raising_and_is_started_again():
    server = FakeServer()
    try:
        server.stop()
        server.alive = lambda: True  # as if it lived but no longer listened
        finding, seen = runner.probe_once(catalog.BY_NAME["missing-host"], server, Limits())
        assert (finding.grade, finding.serving) == ("fail", False) and seen.note.startswith("could not connect")
        assert server.starts == 2
    finally:
        server.stop()


def test_the_slow_probes_run_only_when_asked():
    assert "slowloris" not in {p.name for p in catalog.selected(None, slow=False)}
    assert "slowloris" in {p.name for p in catalog.selected(None, slow=True)}
    assert [p.name for p in catalog.selected("cl-te", slow=False)] == ["cl-te"]


def test_at_least_sixty_probes_over_every_family():
    families = {p.family for p in catalog.PROBES}
    assert len(catalog.PROBES) >= 60 and families == {"framing", "limits", "fragmentation", "semantics", "h2"}
