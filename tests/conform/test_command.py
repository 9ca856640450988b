"""`shootout conform` with a fake harness whose servers are fake_server.py processes."""

import contextlib
import json
from types import SimpleNamespace

import jsonschema
import pytest

from webshootout.commands import conform as conform_cmd
from webshootout.conform import catalog, record
from webshootout.conform.probe import HTTP2
from webshootout.workloads import registry

from .servers import FakeServer


class FakeStack:
    """The harness's three calls; each serving() starts a fake server with `flaws` and stops it after."""

    def __init__(self, *flaws: str, stop_fault: str | None = None):
        self.flaws, self.started, self.stop_fault = flaws, 0, stop_fault

    @contextlib.contextmanager
    def environment(self, work, logs, cpus, need_database):
        yield SimpleNamespace()

    def needs_database(self, variants):
        return False

    @contextlib.contextmanager
    def serving(self, variant, env, *, install, on_stop_fault):
        server = FakeServer(*self.flaws)
        self.started += 1
        try:
            yield SimpleNamespace(server=SimpleNamespace(host="127.0.0.1", port=server.port, ca=None), alive=server.alive)
        finally:
            server.stop()
            if self.stop_fault:
                on_stop_fault(SimpleNamespace(reason=self.stop_fault))


def _settings(tmp_path, ids=("fake",)):
    variants = [SimpleNamespace(id=i, unavailable=None, path_of={"plaintext": "/plaintext"}.get) for i in ids]
    return SimpleNamespace(variants=lambda: variants, install=False, server_cpus=(0,), out=tmp_path, root=tmp_path)


def _args(probe=None):
    return SimpleNamespace(probe=probe, slow=False)


@pytest.fixture
def built(monkeypatch):
    monkeypatch.setattr(conform_cmd.provision, "is_built", lambda variant: variant.id != "unbuilt")


def _written(tmp_path) -> dict:
    doc = json.loads((tmp_path / "conform.json").read_text())
    jsonschema.validate(doc, json.loads(record.SCHEMA_FILE.read_text()))
    return doc


def test_every_probe_against_a_strict_server_passes_and_is_written(tmp_path, capsys, built):
    assert conform_cmd.run(_settings(tmp_path, ("fake", "unbuilt")), _args(), FakeStack()) == 0
    out = capsys.readouterr().out
    assert "unbuilt: not built: ./shootout setup --frameworks unbuilt" in out
    fake = [line for line in out.splitlines() if line.startswith("fake ")]
    assert fake and "38/38" in fake[-1] and "5/5" in fake[-1] and "fail" not in fake[-1], out
    stacks = _written(tmp_path)["stacks"]
    assert stacks[0]["error"] == "not built: ./shootout setup --frameworks unbuilt"
    graded = {f["probe"]: f["grade"] for f in stacks[1]["findings"]}
    assert graded["expect-100-continue"] == "skip"  # the fake id maps no upload
    assert {g for p, g in graded.items() if p != "expect-100-continue"} == {"pass"}
    assert len(graded) == len([p for p in catalog.selected(None, slow=False) if p.family not in HTTP2])  # no h2c


def test_one_probe_shows_its_bytes_and_a_crash_restarts_the_server(tmp_path, capsys, built):
    stack = FakeStack("crash-long-line")
    assert conform_cmd.run(_settings(tmp_path), _args("field-value-1mib"), stack) == 0
    out = capsys.readouterr().out
    assert "fake field-value-1mib: sent b'GET /plaintext HTTP/1.1\\r\\nHost: 127.0.0.1:" in out
    assert "bytes in all)" in out  # 1 MiB, cut short
    assert "fake field-value-1mib: fail: the server died on it" in out
    assert stack.started == 2
    (finding,) = _written(tmp_path)["stacks"][0]["findings"]
    assert (finding["alive"], finding["grade"]) == (False, "fail")


def test_an_unknown_probe_is_refused_naming_them(tmp_path, capsys):
    assert conform_cmd.run(_settings(tmp_path), _args("nope"), FakeStack()) == 2
    assert "no probe 'nope'; the probes: cl-te, te-cl" in capsys.readouterr().out


def test_the_table_names_the_worst_finding_first_fails_then_warns():
    findings = [record.Finding(name, "framing", "MUST", grade, "why")
                for name, grade in (("a", "warn"), ("b", "fail"), ("c", "pass"), ("d", "skip"))]
    assert record.cell(findings) == "1/3, fail b"
    assert record.rows([record.Stack("x", error="not built: ./shootout setup --frameworks x")]) == [
        ("x", "not built", "", "", "", "", "")]


def test_a_grpc_server_gets_no_http1_probe_and_an_id_with_neither_path_is_said(tmp_path, capsys, built):
    grpc = next(w.name for w in registry.REGISTRY.values() if w.http2_only)
    settings = _settings(tmp_path, ("calls", "pathless"))
    calls, pathless = settings.variants()
    calls.path_of, pathless.path_of = {grpc: "/webshootout.Bench/Sum"}.get, {}.get
    stack = FakeStack()
    assert conform_cmd.run(settings, _args(), stack) == 0
    stacks = {s["id"]: s for s in _written(tmp_path)["stacks"]}
    assert stack.started == 1 and stacks["calls"]["findings"] == [] and stacks["calls"]["error"] is None
    assert "nor an HTTP/2-only workload's" in stacks["pathless"]["error"]


def test_a_server_that_stops_badly_is_said_once_per_stop(tmp_path, capsys, built):
    stack = FakeStack(stop_fault="did not stop within 10s of the stop signal and was killed")
    assert conform_cmd.run(_settings(tmp_path), _args("cl-te"), stack) == 0
    said = capsys.readouterr().out
    assert said.count("fake: on stopping: did not stop within 10s of the stop signal and was killed") == stack.started == 1
