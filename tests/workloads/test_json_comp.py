"""json-comp's check against real servers: the contract passes; each way of getting it wrong is refused, named."""

import gzip
import json
import re
from types import SimpleNamespace
from urllib.parse import parse_qs, urlparse

import brotli
import pytest

from webshootout.workloads import VerifyError, json_comp

from .servers import Quiet, serving


def handler(fault: str | None = None):
    class Compressing(Quiet):
        def do_GET(self):  # noqa: N802 - the http.server hook name
            n = int(parse_qs(urlparse(self.path).query)["n"][0])
            items = [{"id": i, "message": "Hello, World!"} for i in range(1, n + 1)]
            if fault == "wrong ids":
                items[-1]["id"] = 0
            body = json.dumps(items).encode()
            accept = self.headers.get("Accept-Encoding", "")
            extra = {}
            if fault == "gzip for br" and "br" in accept:
                accept = "gzip"
            if "gzip" in accept and fault != "uncompressed":
                body, extra = gzip.compress(body), {"Content_Encoding": "gzip", "Vary": "Accept-Encoding"}
                if fault == "no vary":
                    del extra["Vary"]
                if fault == "not gzip":
                    body = b"\x1f\x8b" + body[2:][::-1]
            elif "br" in accept:
                body, extra = brotli.compress(body), {"Content_Encoding": "br", "Vary": "Accept-Encoding"}
            elif fault == "always gzip":
                body, extra = gzip.compress(body), {"Content_Encoding": "gzip", "Vary": "Accept-Encoding"}
            self.answer(200, body, "application/json", **extra)

    return Compressing


def test_the_contract_passes():
    with serving(handler(), "/json-comp") as ctx:
        json_comp.verify(ctx)


@pytest.mark.parametrize("fault, message", [
    ("uncompressed", "Content-Encoding 'identity', expected gzip (an answer this size must be compressed)"),
    ("no vary", "without Vary: Accept-Encoding"),
    ("not gzip", "does not decode as gzip"),
    ("always gzip", "Content-Encoding 'gzip', expected identity"),
    ("gzip for br", "Content-Encoding 'gzip', expected br or identity"),
    ("wrong ids", "expected the 100 objects"),
])
def test_each_fault_is_refused(fault, message):
    with serving(handler(fault), "/json-comp") as ctx, pytest.raises(VerifyError, match=re.escape(message)):
        json_comp.verify(ctx)


def test_the_load_target_asks_for_gzip_and_matches_any_spacing_of_the_array():
    target = json_comp.target(SimpleNamespace(path="/j"), 3)
    assert target.headers == ("Accept-Encoding: gzip",) and target.expect_encoding == "gzip"
    regex = re.compile(target.expect_body_regex)
    assert regex.match(json.dumps(json_comp.value(3)))
    assert regex.match('[{"message":"Hello, World!","id":1},{"id":2,"message":"Hello, World!"},{"id":3,"message":"Hello, World!"}]')
    assert not regex.match(json.dumps(json_comp.value(2)))
