"""shootout-load's --grpc against a real grpcio server of ours: right answers are all valid calls, over h2c and TLS
and on several streams of a connection; a non-zero grpc-status, a malformed message, a wrong value and a stream a
message short are errors, never calls."""

import os

import pytest

from webshootout.load import native
from webshootout.load.base import HTTP2, LoadSpec
from webshootout.services import certs
from webshootout.workloads import grpc_stream, grpc_unary
from webshootout.workloads.base import Context
from workloads.grpc_server import serving

from .test_native_driver import _built

pytestmark = pytest.mark.integration

SUM, COUNT = "/webshootout.Bench/Sum", "/webshootout.Bench/Count"


def _load(port, target, ca=None, streams=1):
    _built()
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    return native.run(LoadSpec("127.0.0.1", port, target, connections=4, threads=1, duration=1.0, cpus=cpus,
                               warmup=0.3, tls_ca=ca, http=HTTP2, streams=streams))


def _unary(port):
    return grpc_unary.target(Context("127.0.0.1", port, SUM, None, None))


def _stream(port, n=10):
    return grpc_stream.target(Context("127.0.0.1", port, COUNT, None, None), n)


def test_right_answers_are_all_valid_calls_over_h2c_tls_and_streams(tmp_path):
    with serving() as port:
        for result in (_load(port, _unary(port), streams=4), _load(port, _stream(port))):
            assert result.requests > 50 and sum(result.errors.values()) == 0, result.errors
            assert result.validated and result.mix is None
    made = certs.make(tmp_path)
    with serving(certs=made) as port:
        result = _load(port, _unary(port), ca=made.ca)
        assert result.requests > 50 and sum(result.errors.values()) == 0, result.errors
        assert result.transport["tls"]["alpn"] == "h2"


@pytest.mark.parametrize("flaw, kind, stream", [("internal", "status", False), ("malformed", "validation", False),
                                                ("wrong sum", "validation", False),
                                                ("one message short", "validation", True)])
def test_each_flaw_is_an_error_and_no_call_counts(flaw, kind, stream):
    with serving(flaw) as port:
        result = _load(port, _stream(port) if stream else _unary(port))
    assert result.requests == 0 and result.errors[kind] > 50, result.errors
