"""The gRPC workloads' checks against a real grpcio server of ours: the contract passes over h2c and TLS; each flaw
is refused, named."""

import json
import re

import pytest

from webshootout.services import certs
from webshootout.workloads import VerifyError, grpc_stream, grpc_unary
from webshootout.workloads.base import Context
from webshootout.workloads.probe import Link

from .grpc_server import FLAWS, serving

SUM, COUNT = "/webshootout.Bench/Sum", "/webshootout.Bench/Count"


def check(port, link=Link(), flaw_paths=(SUM, COUNT)):
    for path, module in zip(flaw_paths, (grpc_unary, grpc_stream)):
        module.verify(Context("127.0.0.1", port, path, None, None, link=link))


def test_the_contract_passes_over_h2c_and_tls(tmp_path):
    with serving() as port:
        check(port)
    made = certs.make(tmp_path)
    with serving(certs=made) as port:
        check(port, Link(ca=made.ca))


@pytest.mark.parametrize("flaw, message", [
    ("internal", "Sum() at /webshootout.Bench/Sum over h2c: status INTERNAL (13): 'flawed on purpose', expected OK"),
    ("wrong sum", "Sum() at /webshootout.Bench/Sum over h2c: 1 message(s) ['SumReply(sum: 1)'], expected 1: "
                  "['SumReply()']"),
    ("malformed", "1 message(s) [\"not a SumReply: b'\\\\xff\\\\xff\\\\xff'\"]"),
    ("one message short", "Count(n: 1) at /webshootout.Bench/Count over h2c: 0 message(s) [], expected 1"),
    ("negative accepted", "Sum(a: -1 b: 5) at /webshootout.Bench/Sum over h2c: status OK with 1 message(s), expected "
                          "INVALID_ARGUMENT"),
    ("int32 values", "Count(start: 2147483647 n: 1000) at /webshootout.Bench/Count over h2c: 1000 message(s) "
                     "['CountReply(value: 2147483647)', 'CountReply(value: -2147483648)'"),
])
def test_each_flaw_is_refused(flaw, message):
    assert flaw in FLAWS
    with serving(flaw) as port, pytest.raises(VerifyError, match=re.escape(message)):
        check(port)


def test_a_wrong_method_path_is_refused_by_its_status():
    with serving() as port, pytest.raises(VerifyError, match=re.escape("status UNIMPLEMENTED (12)")):
        grpc_unary.verify(Context("127.0.0.1", port, "/webshootout.Bench/Add", None, None))


def test_the_load_spec_holds_64_distinct_calls_with_their_exact_answers():
    spec = json.loads(grpc_unary.target(Context("h", 1, SUM, None, None)).grpc)
    assert len(spec["calls"]) == len({c["request"] for c in spec["calls"]}) == 64
    proto = grpc_unary.grpc_calls.messages()
    third = spec["calls"][3]
    assert proto.SumRequest.FromString(bytes.fromhex(third["request"])) == proto.SumRequest(a=3, b=3000)
    assert [proto.SumReply.FromString(bytes.fromhex(r)).sum for r in third["replies"]] == [3003]
    stream = json.loads(grpc_stream.target(Context("h", 1, COUNT, None, None), 5).grpc)["calls"][2]["replies"]
    assert [proto.CountReply.FromString(bytes.fromhex(r)).value for r in stream] == [2000, 2001, 2002, 2003, 2004]
