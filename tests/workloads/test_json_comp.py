"""json-comp's check against real servers: the contract passes; each way of getting it wrong is refused, named."""

import json
import re
from types import SimpleNamespace

import pytest

from webshootout.workloads import VerifyError, json_comp

from .servers import compressing, serving


def test_the_contract_passes():
    with serving(compressing(), "/json-comp") as ctx:
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
    with serving(compressing(fault), "/json-comp") as ctx, pytest.raises(VerifyError, match=re.escape(message)):
        json_comp.verify(ctx)


def test_the_load_target_asks_for_gzip_and_matches_any_spacing_of_the_array():
    target = json_comp.target(SimpleNamespace(path="/j"), 3)
    assert target.headers == ("Accept-Encoding: gzip",) and target.expect_encoding == "gzip"
    regex = re.compile(target.expect_body_regex)
    assert regex.match(json.dumps(json_comp.value(3)))
    assert regex.match('[{"message":"Hello, World!","id":1},{"id":2,"message":"Hello, World!"},{"id":3,"message":"Hello, World!"}]')
    assert not regex.match(json.dumps(json_comp.value(2)))
