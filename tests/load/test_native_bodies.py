"""shootout-load against real servers with what json-comp, upload and --requests-per-connection ask of it: a
gzip answer checked and its bytes counted, a body sent with Content-Length and chunked, connections closed
after N answers; and the same servers getting it wrong are counted as errors, never as throughput."""

import os
import time
from types import SimpleNamespace

from hello import Hello, Serving
from webshootout.load import native
from webshootout.load.base import LoadSpec
from webshootout.workloads import Target, json_comp, upload
from workloads.servers import compressing, hashing

from .test_native_driver import _built

SITE = SimpleNamespace(path="/x")


def _run(port: int, target, **kw):
    _built()
    cpus = tuple(sorted(os.sched_getaffinity(0)))
    return native.run(LoadSpec("127.0.0.1", port, target, connections=2, threads=1, duration=1.0, cpus=cpus, **kw))


def _errors(result) -> int:
    return sum(result.errors.values())


def test_compressed_answers_pass_and_an_uncompressed_or_wrong_one_is_an_error():
    target = json_comp.target(SITE, 100)
    with Serving(compressing()) as serving:
        good = _run(serving.port, target)
    assert good.requests > 20 and _errors(good) == 0, good.errors
    # The bytes on the wire are the compressed ones: far fewer than the 3.5 KB of JSON per answer.
    assert good.bytes_read / good.responses_total < 1000
    # The most the contract asks for: its pattern of 1,000 items compiles (past the regex crate's default limit).
    with Serving(compressing()) as serving:
        most = _run(serving.port, json_comp.target(SITE, json_comp.MAX_ITEMS))
    assert most.requests > 5 and _errors(most) == 0, most.errors
    with Serving(compressing("uncompressed")) as serving:
        plain = _run(serving.port, target)
    assert plain.requests == 0 and plain.errors["validation"] > 0, plain.errors
    # A body that says gzip and is not: caught on the answers decoded (one in 16), each an error.
    with Serving(compressing("not gzip")) as serving:
        broken = _run(serving.port, target)
    assert broken.errors["validation"] > 0 and broken.requests > 10 * broken.errors["validation"], broken.errors


def test_a_body_goes_with_content_length_or_chunked_and_a_digest_of_part_of_it_is_an_error():
    for chunk in (None, 16 << 10):
        target = upload.target_for(chunk)(SITE, 65536)
        with Serving(hashing()) as serving:
            good = _run(serving.port, target)
        assert good.requests > 20 and _errors(good) == 0, (chunk, good.errors)
    with Serving(hashing("first chunk")) as serving:
        bad = _run(serving.port, upload.target_for(16 << 10)(SITE, 65536))
    assert bad.requests == 0 and bad.errors["validation"] > 0, bad.errors


def test_connections_close_after_n_answers_and_are_counted():
    Hello.connections = 0
    with Serving(Hello) as serving:
        started = time.monotonic()
        result = _run(serving.port, Target("/", expect_body="Hello, World!"), requests_per_connection=3)
    assert _errors(result) == 0 and result.requests > 30 and time.monotonic() - started < 30
    assert result.requests_per_connection == 3
    # Every third answer closed its connection: the window's reconnects are a third of its answers, give or take
    # the connections cut by the window's edges.
    assert abs(result.reconnects - result.requests / 3) <= 4, (result.reconnects, result.requests)
    assert Hello.connections >= result.reconnects
