"""upload's and upload-chunked's checks against real servers: the contract passes; each fault is refused, named."""

import hashlib
import re
from types import SimpleNamespace

import pytest

from webshootout.services import certs
from webshootout.workloads import VerifyError, upload, upload_chunked

from .servers import hashing, serving


def test_both_forms_pass():
    with serving(hashing(), "/upload") as ctx:
        upload.verify(ctx)
        upload_chunked.verify(ctx)


def test_over_tls_an_over_size_body_is_refused_and_one_accepted_is_caught(tmp_path):
    # TLS 1.3's session tickets make the socket readable before any answer: the check must not take them for one.
    made = certs.make(tmp_path)
    with serving(hashing(), "/upload", made) as ctx:
        upload.verify(ctx)
        upload_chunked.verify(ctx)
    with serving(hashing("no limit"), "/upload", made) as ctx, pytest.raises(VerifyError, match="must be refused"):
        upload.verify(ctx)


@pytest.mark.parametrize("verify, fault, message", [
    (upload.verify, "first read", "the server read"),
    (upload.verify, "no limit", "status 200: a body over 16 MiB must be refused"),
    (upload_chunked.verify, "first chunk", "the server read 1 bytes of the 65536 sent"),
    (upload_chunked.verify, "no limit", "status 200: a body over 16 MiB must be refused"),
])
def test_each_fault_is_refused(verify, fault, message):
    with serving(hashing(fault), "/upload") as ctx, pytest.raises(VerifyError, match=re.escape(message)):
        verify(ctx)


def test_the_load_body_is_the_pattern_and_its_answer_the_digest():
    assert upload.pattern(253) == bytes(range(251)) + b"\x00\x01"
    target = upload.target_for(16384)(SimpleNamespace(path="/u"), 1024)
    assert (target.method, target.body_bytes, target.chunk_bytes) == ("POST", 1024, 16384)
    assert re.match(target.expect_body_regex, f"1024 {hashlib.sha256(upload.pattern(1024)).hexdigest()}\n")
    assert upload.chunked(b"abcde", [2]) == [b"2\r\nab\r\n", b"2\r\ncd\r\n", b"1\r\ne\r\n", b"0\r\n\r\n"]
