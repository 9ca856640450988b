"""The h2load driver: its report and request log as h2load 1.52 (Debian 12's nghttp2-client) printed them in runs
of a second or two against servers on loopback (nghttpd for h2 and h2c, Python's http.server for HTTP/1.1;
the logs of the big runs cut to their first lines), and one real run."""

import os
import shutil
from pathlib import Path

import pytest

from hello import Serving
from webshootout.load import h2load
from webshootout.load.base import DriverError, LoadSpec, negotiated
from webshootout.workloads import Target


def _spec(**kw) -> LoadSpec:
    values = dict(host="127.0.0.1", port=18443, target=Target("/plaintext"), connections=4, threads=1, duration=2.0,
                  cpus=(0,))
    return LoadSpec(**{**values, **kw})


def _captured(fixture_root, name: str, spec: LoadSpec):
    folder = fixture_root / "drivers" / "h2load"
    log = folder / f"{name}.log.tsv"
    rows = h2load.read_log(log.read_text()) if log.exists() else []
    return h2load.parse((folder / f"{name}.txt").read_text(), rows, 1.5, spec)


def test_h2_over_tls_report_and_log(fixture_root):
    spec = _spec(tls_ca=Path("ca.pem"), http="2", streams=10)
    result = _captured(fixture_root, "tls-h2", spec)
    assert result.driver == "h2load" and result.requests == 162170 and result.rps == 162170 / 2.0
    assert result.bytes_read == 6811324 and sum(result.errors.values()) == 0 and result.responses_total == 162170
    assert result.transport == {"http": "2", "streams": 10, "tls": {
        "version": "TLSv1.3", "cipher": "TLS_AES_256_GCM_SHA384", "alpn": "h2", "handshakes": None, "resumed": None,
        "handshake_ms": None}}
    # The log's first 300 requests (the fixture keeps those): every one a 200, latency from them.
    assert result.status_counts == {"200": 300}
    assert result.latency_us["max"] == max(int(line.split("\t")[2]) for line in
                                           (fixture_root / "drivers/h2load/tls-h2.log.tsv").read_text().splitlines())
    assert result.latency_us["p50"] <= result.latency_us["p99"] <= result.latency_us["max"]
    assert not result.validated and h2load.NO_VERIFY in result.notes
    assert negotiated("h2load", spec, result) is result


def test_http1_over_tls_and_cleartext(fixture_root):
    spec = _spec(tls_ca=Path("ca.pem"), duration=1.0)
    tls = _captured(fixture_root, "tls-h1", spec)
    assert tls.transport["http"] == "1.1" and tls.transport["tls"]["alpn"] == "http/1.1"
    assert tls.requests == 44 and tls.status_counts == {"200": 44} and negotiated("h2load", spec, tls) is tls
    clear = _captured(fixture_root, "h1", _spec(duration=1.0))
    assert clear.transport == {"http": "1.1", "streams": 1, "tls": None} and clear.requests == 46
    assert clear.latency_us == dict.fromkeys(clear.latency_us)  # no log was captured: nothing to rank
    with pytest.raises(DriverError, match=r"asked for h1\+tls but h2load ran HTTP/1.1 over cleartext"):
        negotiated("h2load", spec, clear)


def test_status_failures_are_status_errors_and_h2c_is_http2(fixture_root):
    result = _captured(fixture_root, "h2c-404", _spec(http="2", streams=4, duration=1.5))
    assert result.requests == 0 and result.errors["status"] == 86448 and result.errors["read"] == 0
    assert result.responses_total == 86448 and result.status_counts == {"404": 100}
    assert result.transport == {"http": "2", "streams": 4, "tls": None}


def test_a_server_without_h2_by_alpn_and_a_closed_port_are_clear_errors(fixture_root):
    with pytest.raises(DriverError, match="selected no protocol h2load offered by ALPN"):
        _captured(fixture_root, "tls-no-h2", _spec(tls_ca=Path("ca.pem"), http="2"))
    with pytest.raises(DriverError, match="sent no request to http://127.0.0.1:18443/plaintext"):
        _captured(fixture_root, "refused", _spec())


def test_argv_per_transport():
    log = Path("r.tsv")
    assert h2load.argv(_spec(), log)[-2:] == ["--h1", "http://127.0.0.1:18443/plaintext"]
    h2 = h2load.argv(_spec(tls_ca=Path("ca.pem"), http="2", streams=10), log)
    assert h2[h2.index("--log-file") + 2:] == ["--npn-list=h2", "-m", "10", "https://127.0.0.1:18443/plaintext"]
    assert "--npn-list=h2" not in h2load.argv(_spec(http="2"), log)  # h2c: prior knowledge
    assert h2load.argv(_spec(warmup=1.5), log)[-3:-1] == ["--warm-up-time", "1500ms"]


@pytest.mark.parametrize("kw, message", [
    (dict(rate=100.0), "open-loop rates"), (dict(pipeline=4), "pipeline = 4"),
    (dict(keepalive=False), "connection per request"), (dict(target=Target("/s", sessions=True)), "sessions"),
    (dict(target=Target("/ws", websocket_message="hi")), "WebSocket"),
])
def test_what_h2load_cannot_do_is_refused(kw, message):
    with pytest.raises(DriverError, match=message):
        h2load.argv(_spec(**kw), Path("r.tsv"))


def test_a_bad_log_line_is_named():
    with pytest.raises(DriverError, match="line 2"):
        h2load.read_log("1\t200\t5\nnonsense\n")


def test_real_run_over_cleartext_http1():
    if shutil.which("h2load") is None:
        pytest.skip("h2load is not installed (./shootout setup --harness-only installs nghttp2-client)")
    with Serving() as serving:
        spec = LoadSpec("127.0.0.1", serving.port, Target("/"), connections=2, threads=1, duration=1.0,
                        cpus=tuple(sorted(os.sched_getaffinity(0))))
        result = h2load.run(spec)
    assert result.requests > 10 and sum(result.errors.values()) == 0, result.errors
    assert result.status_counts == {"200": result.requests} and result.transport["http"] == "1.1"
    assert 0 < result.latency_us["p50"] <= result.latency_us["max"]
