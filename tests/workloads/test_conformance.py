"""Response conformance: TechEmpower's verification rules (workloads/techempower.py) rule by rule, and our own
header rules (Server, a current Date, Content-Type with charset) on canned and live answers."""

import threading
import time
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from webshootout.services.assets import Assets
from webshootout.workloads.probe import Response
from webshootout.workloads import VerifyError, plaintext, techempower
from webshootout.workloads.base import Context, expect
from webshootout.workloads.headers import TEXT_UTF8, content_type_matches, parse_date, server_and_date
from webshootout.workloads.techempower import FAIL, WARN

NOW = "Mon, 23 Nov 2026 12:00:00 GMT"
LATER = "Mon, 23 Nov 2026 12:00:01 GMT"


def answer(body: bytes, content_type: str = "text/plain", drop: tuple[str, ...] = (), **extra: str) -> Response:
    headers = {"server": "demo", "date": NOW, "content-type": content_type, "content-length": str(len(body))}
    headers.update({k.replace("_", "-"): v for k, v in extra.items()})
    return Response(200, {k: v for k, v in headers.items() if k not in drop}, (), body)


def later(date: str = LATER) -> Response:
    return Response(200, {"date": date}, (), b"")


def levels(problems) -> list[tuple[str, str]]:
    return [(p.level, p.message) for p in problems]


def only(problems, level: str) -> list[str]:
    return [p.message for p in problems if p.level == level]


JSON = "application/json"
HELLO_JSON = b'{"message":"Hello, World!"}'
ROW = b'{"id":42,"randomNumber":7}'


# --- plaintext.TestType.verify --------------------------------------------------------------------------

def test_plaintext_that_follows_every_rule_has_no_problem():
    assert techempower.plaintext_problems("/plaintext", answer(b"Hello, World!"), later()) == []


@pytest.mark.parametrize("body, message", [(b"", "Empty response"), (b"Goodbye", "Could not find 'Hello, World!'")])
def test_plaintext_body_must_hold_hello_world(body, message):
    (problem,) = techempower.plaintext_problems("/plaintext", answer(body), later())
    assert problem.level == FAIL and message in problem.message


def test_plaintext_body_is_compared_without_case_and_extra_bytes_only_warn():
    problems = techempower.plaintext_problems("/plaintext", answer(b"HELLO, WORLD!\n"), later())
    assert levels(problems) == [(WARN, "Server is returning 1 more bytes than are required. "
                                       "This may negatively affect benchmark performance.")]


def test_plaintext_route_must_be_at_least_ten_characters():
    (problem,) = techempower.plaintext_problems("/p", answer(b"Hello, World!"), later())
    assert problem.level == FAIL and "at least 10 characters, found '/p'" in problem.message


# --- verify_headers -------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["server", "date", "content-type"])
def test_required_headers(name):
    problems = techempower.header_problems(answer(b"x", drop=(name,)).headers, later().headers, techempower.TEXT)
    wanted = {"server": "Server", "date": "Date", "content-type": "Content-Type"}[name]
    assert f"Required response header missing: {wanted}" in only(problems, FAIL)


def test_size_header_content_length_or_transfer_encoding():
    chunked = answer(b"x", drop=("content-length",), transfer_encoding="chunked")
    assert techempower.header_problems(chunked.headers, later().headers, techempower.TEXT) == []
    bare = answer(b"x", drop=("content-length",))
    assert "Required response size header missing" in only(
        techempower.header_problems(bare.headers, later().headers, techempower.TEXT), FAIL)[0]


def test_a_date_in_another_format_only_warns():
    odd = answer(b"x", date="2026-11-23T12:00:00Z")
    problems = techempower.header_problems(odd.headers, later().headers, techempower.TEXT)
    assert only(problems, FAIL) == [] and "Invalid Date header" in only(problems, WARN)[0]


def test_the_same_date_on_separate_requests_fails():
    problems = techempower.header_problems(answer(b"x").headers, later(NOW).headers, techempower.TEXT)
    assert only(problems, FAIL) == [f'Invalid Cached Date. Found "{NOW}" and "{NOW}" on separate requests.']


@pytest.mark.parametrize("kind, value, ok", [
    (techempower.TEXT, "text/plain", True), (techempower.TEXT, "text/plain; charset=utf-8", True),
    (techempower.TEXT, "text/plain;charset=UTF-8", True), (techempower.TEXT, "text/plain; charset=utf8", False),
    (techempower.TEXT, "text/plain; charset=iso-8859-1", False), (techempower.TEXT, "Text/Plain", False),
    (techempower.JSON, "application/json", True), (techempower.JSON, "application/json; charset=utf-8", True),
    (techempower.JSON, "application/json;  charset=utf-8", False), (techempower.JSON, "text/json", False),
])
def test_content_type_patterns(kind, value, ok):
    problems = techempower.header_problems(answer(b"x", content_type=value).headers, later().headers, kind)
    assert (problems == []) == ok, problems


# --- json.TestType.verify -------------------------------------------------------------------------------

def test_json_that_follows_every_rule_has_no_problem():
    assert techempower.json_problems(answer(HELLO_JSON, JSON), later()) == []


@pytest.mark.parametrize("body, message", [
    (b"", "Empty response"), (b"{message: 1}", "Invalid JSON"), (b'["Hello, World!"]', "Not a valid JSON object"),
    (b'{"message": 1}', "Not a valid JSON object"), (b'{"msg": "Hello, World!"}', "Missing required key 'message'"),
    (b'{"message": "Hello"}', "Expected message of 'hello, world!', got 'hello'"),
])
def test_json_failures(body, message):
    problems = techempower.json_problems(answer(body, JSON), later())
    assert message in only(problems, FAIL)[0]


def test_json_case_and_extra_keys():
    assert techempower.json_problems(answer(b'{"MESSAGE": "hello, world!"}', JSON), later()) == []
    problems = techempower.json_problems(answer(b'{"message": "Hello, World!", "x": "y"}', JSON), later())
    assert levels(problems) == [(WARN, "Too many JSON key/value pairs, consider removing: x")]


def test_json_answer_needs_json_content_type():
    problems = techempower.json_problems(answer(HELLO_JSON, "text/plain"), later())
    assert "Invalid Content-Type header" in only(problems, FAIL)[0]


# --- db.TestType.verify ---------------------------------------------------------------------------------

def test_db_that_follows_every_rule_has_no_problem():
    assert techempower.db_problems(answer(ROW, JSON), later()) == []
    assert techempower.db_problems(answer(b'{"ID": "42", "RandomNumber": 7}', JSON), later()) == []


@pytest.mark.parametrize("body, message", [
    (b"", "Empty response"), (b"nope", "Invalid JSON"), (b"5", "Expected a JSON object, got '5'"),
    (b"[5]", "Response is not a JSON object or an array of JSON objects"),
    (b"[]", "Response is not a JSON object or an array of JSON objects"),
    (b'{"id": 1}', "missing required key: randomnumber"), (b'{"randomNumber": 1}', "missing required key: id"),
    (b'{"id": null, "randomNumber": 1}', "Response key 'id' does not map to an integer"),
    (b'{"id": 1, "randomNumber": "many"}', "Response key 'randomnumber' does not map to an integer"),
])
def test_db_failures(body, message):
    problems = techempower.db_problems(answer(body, JSON), later())
    assert any(message in m for m in only(problems, FAIL)), problems


@pytest.mark.parametrize("body, message", [
    (b'[{"id": 42, "randomNumber": 7}]', "Response is a JSON array"),
    (b'{"id": 42, "randomNumber": 7, "extra": 1}', "extra key(s) is being included with the db object: extra"),
    (b'{"id": 10001, "randomNumber": 7}', "should be between 1 and 10,000: 10001"),
    (b'{"id": 42, "randomNumber": 10001}', "`randomNumber` is over 10,000"),
])
def test_db_warnings(body, message):
    problems = techempower.db_problems(answer(body, JSON), later())
    assert only(problems, FAIL) == [] and message in only(problems, WARN)[0]


def test_enforce_fails_on_a_failure_and_passes_warnings():
    techempower.enforce("GET /db", [techempower.Problem(WARN, "extra key")])
    with pytest.raises(VerifyError, match="GET /db: TechEmpower's verification rules: no Server; no Date"):
        techempower.enforce("GET /db", [techempower.Problem(FAIL, "no Server"), techempower.Problem(FAIL, "no Date")])


# --- our header rules -----------------------------------------------------------------------------------

def test_parse_date_accepts_only_imf_fixdate():
    assert parse_date("Sun, 06 Nov 1994 08:49:37 GMT").timestamp() == 784111777
    for bad in ("Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994", "Sun, 06 Nov 1994 08:49:37 UTC",
                "Sun, 6 Nov 1994 08:49:37 GMT", "Sun, 31 Nov 1994 08:49:37 GMT"):
        with pytest.raises(ValueError, match="IMF-fixdate|calendar date"):
            parse_date(bad)
    with pytest.raises(ValueError, match="is a Sun, not a Mon"):
        parse_date("Mon, 06 Nov 1994 08:49:37 GMT")


def test_server_and_date_name_the_header_and_value():
    now = parse_date(NOW).timestamp()
    assert server_and_date(answer(b"x"), now=now + 2) is None
    assert "no Server header" in server_and_date(answer(b"x", drop=("server",)), now=now)
    assert "no Date header" in server_and_date(answer(b"x", drop=("date",)), now=now)
    assert "'2026-11-23'" in server_and_date(answer(b"x", date="2026-11-23"), now=now)
    assert f"Date header {NOW!r} is 60 s behind" in server_and_date(answer(b"x"), now=now + 60)


@pytest.mark.parametrize("value, expected, ok", [
    ("text/plain; charset=utf-8", TEXT_UTF8, True), ("Text/Plain;Charset=UTF-8", TEXT_UTF8, True),
    ("text/plain", TEXT_UTF8, False), ("text/plain; charset=latin-1", TEXT_UTF8, False),
    ("application/json", "application/json", True), ("application/json; charset=utf-8", "application/json", True),
    ("text/html;charset=UTF-8", "text/html", True), ("text/plain", "text/html", False),
])
def test_content_type_rule(value, expected, ok):
    assert content_type_matches(value, expected) == ok


def test_expect_names_the_content_type_header_and_value():
    with pytest.raises(VerifyError, match="Content-Type header 'text/plain', expected 'text/plain; charset=utf-8'"):
        expect("GET /plaintext", answer(b"x"), content_type=TEXT_UTF8)


# --- live: every answer of a check, and a Date that changes ---------------------------------------------

class _Server:
    """A local HTTP/1.1 server whose Date is computed per answer (None), fixed (a date), or "absent"; with
    `late`, the first answer's Date is sent again on the next `late` answers, as by a refresh timer run late."""

    def __init__(self, date: str | None, path: str = "/plaintext", late: int = 0):
        fixed = date
        self.late, self.first_date = late, None
        self.path = path
        self.requests = 0
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):  # noqa: N802 - the name http.server calls
                server.requests += 1
                self.send_response_only(200)
                self.send_header("Server", "test")
                if fixed != "absent":
                    self.send_header("Date", fixed or server.date())
                self.send_header("Content-Type", TEXT_UTF8)
                self.send_header("Content-Length", "13")
                self.end_headers()
                self.wfile.write(b"Hello, World!")

            def log_message(self, *args):
                pass

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)

    def date(self) -> str:
        now = formatdate(usegmt=True)
        self.first_date = self.first_date or now
        return self.first_date if self.requests <= self.late + 1 else now

    def __enter__(self) -> Context:
        self.thread.start()
        unused = Assets(Path("unused"), Path("unused"))  # plaintext reads no file
        self.ctx = Context("127.0.0.1", self.httpd.server_address[1], self.path, None, unused)
        return self.ctx

    def __exit__(self, *exc):
        self.ctx.close()
        self.httpd.shutdown()
        self.httpd.server_close()
        self.thread.join()


def test_a_current_date_changes_and_passes():
    with _Server(None) as ctx:
        start = time.monotonic()
        ctx.visitor().get("/plaintext")
        first, second = ctx.expect_date_changes()
        assert time.monotonic() - start >= 1.1 and first.headers["date"] != second.headers["date"]


def test_a_date_one_tick_late_gets_a_second_tick_and_passes():
    server = _Server(None, late=1)
    with server as ctx:
        ctx.visitor().get("/plaintext")
        first, later = ctx.expect_date_changes()
    assert first.headers["date"] != later.headers["date"] and server.requests == 3


def test_a_frozen_date_fails_naming_it():
    with _Server(formatdate(usegmt=True)) as ctx:
        ctx.visitor().get("/plaintext")
        with pytest.raises(VerifyError, match="Date header '.* GMT' did not change"):
            ctx.expect_date_changes()


def test_an_answer_without_date_fails_at_once():
    with _Server("absent") as ctx, pytest.raises(VerifyError, match="GET /plaintext: no Date header"):
        ctx.visitor().get("/plaintext")


def test_plaintext_verification_applies_techempower_rules():
    with _Server(None) as ctx:
        plaintext.verify(ctx)
        ctx.finish()
    with _Server(None, path="/p") as ctx, pytest.raises(
            VerifyError, match="GET /p: TechEmpower's verification rules: Route for plaintext must be at least 10"):
        plaintext.verify(ctx)
        ctx.finish()


def test_the_date_check_waits_for_finish_so_checks_share_one_wait():
    current, frozen = _Server(None), _Server(formatdate(usegmt=True))
    with current as first, frozen as second:
        plaintext.verify(first)
        plaintext.verify(second)
        assert (current.requests, frozen.requests) == (3, 3), "no second answer before finish()"
        first.finish()
        with pytest.raises(VerifyError, match="did not change"):
            second.finish()
        assert (current.requests, frozen.requests) == (4, 5), "a frozen Date is asked once more, a tick later"
