"""upload's and upload-chunked's checks against real servers: the contract passes; each fault is refused, named."""

import hashlib
import re

import pytest

from webshootout.workloads import VerifyError, upload, upload_chunked

from .servers import Quiet, serving

LIMIT = 2 << 20


def handler(fault: str | None = None):
    class Hashing(Quiet):
        def do_POST(self):  # noqa: N802 - the http.server hook name
            if "chunked" in self.headers.get("Transfer-Encoding", ""):
                body = self.chunks()
            else:
                length = int(self.headers.get("Content-Length", "0"))
                if length > LIMIT and fault != "no limit":
                    self.close_connection = True
                    return self.answer(413, b"too large", "text/plain; charset=utf-8", Connection="close")
                body = self.rfile.read(length) if fault != "first read" else self.rfile.read1(length)
                if fault == "first read":
                    self.close_connection = True
            if body is None:
                return
            digest = hashlib.sha256(body).hexdigest()
            self.answer(200, f"{len(body)} {digest}".encode(), "text/plain; charset=utf-8")

        def chunks(self) -> bytes | None:
            parts, total = [], 0
            while size := int(self.rfile.readline().split(b";")[0], 16):
                total += size
                if total > LIMIT and fault != "no limit":
                    self.close_connection = True
                    self.answer(413, b"too large", "text/plain; charset=utf-8", Connection="close")
                    return None
                parts.append(self.rfile.read(size))
                self.rfile.readline()
            self.rfile.readline()
            return parts[0] if fault == "first chunk" else b"".join(parts)

    return Hashing


def test_both_forms_pass():
    with serving(handler(), "/upload") as ctx:
        upload.verify(ctx)
        upload_chunked.verify(ctx)


@pytest.mark.parametrize("verify, fault, message", [
    (upload.verify, "first read", "the server read"),
    (upload.verify, "no limit", "status 200: a body over 16 MiB must be refused"),
    (upload_chunked.verify, "first chunk", "the server read 1 bytes of the 65536 sent"),
    (upload_chunked.verify, "no limit", "status 200: a body over 16 MiB must be refused"),
])
def test_each_fault_is_refused(verify, fault, message):
    with serving(handler(fault), "/upload") as ctx, pytest.raises(VerifyError, match=re.escape(message)):
        verify(ctx)


def test_the_load_body_is_the_pattern_and_its_answer_the_digest():
    assert upload.pattern(253) == bytes(range(251)) + b"\x00\x01"
    target = upload.target_for(16384)(type("C", (), {"path": "/u"})(), 1024)
    assert (target.method, target.body_bytes, target.chunk_bytes) == ("POST", 1024, 16384)
    assert re.match(target.expect_body_regex, f"1024 {hashlib.sha256(upload.pattern(1024)).hexdigest()}\n")
    assert upload.chunked(b"abcde", [2]) == [b"2\r\nab\r\n", b"2\r\ncd\r\n", b"1\r\ne\r\n", b"0\r\n\r\n"]
