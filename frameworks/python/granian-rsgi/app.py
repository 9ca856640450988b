"""webshootout workloads as a bare RSGI application on Granian, no framework (see docs/workloads.md).

RSGI is Granian's own interface (https://github.com/emmett-framework/granian/blob/master/docs/spec/RSGI.md):
the Rust server parses HTTP and WebSocket and hands each request to a coroutine with a scope and a
protocol object whose response_* methods send the whole answer in one call. This is the floor under
the RSGI frameworks (emmett), as asgi-uvicorn is under the ASGI ones: routing, query parsing, cookies
and JSON by hand, the same driver and shared code as the other async stacks.
"""

import asyncio
import json
import mimetypes
import os
import random
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

import jinja2
from granian.rsgi import WebsocketMessageType
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")
STATIC_DIR = env.value("STATIC_DIR")
STATIC_PREFIX = "/static/"

# Jinja2 with autoescape, as the ASGI stacks render fortunes.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"), autoescape=True)
fortunes_template = templates.get_template("fortunes.html")

TEXT = [("content-type", "text/plain; charset=utf-8")]
JSON = [("content-type", "application/json")]
HTML = [("content-type", "text/html; charset=utf-8")]
NOT_FOUND = (404, TEXT, "Not Found")


def query_param(scope, name: str) -> str | None:
    # keep_blank_values: "?n=" is a present but empty n (an integer error), not a missing one.
    values = parse_qs(scope.query_string, keep_blank_values=True).get(name)
    return values[0] if values else None


def cookie(scope, name: str) -> str | None:
    raw = scope.headers.get("cookie")
    if raw is None:
        return None
    try:
        morsel = SimpleCookie(raw).get(name)
    except CookieError:
        return None
    return morsel.value if morsel else None


class App:
    """The RSGI application: __rsgi_init__ and __rsgi_del__ run in each Granian worker around its
    event loop, __rsgi__ per request or WebSocket."""

    def __init__(self) -> None:
        self.pool = None
        self.world_cache = te.WorldCache()
        self.routes = {
            "/plaintext": self.plaintext, "/async": self.async_, "/json": self.json, "/db": self.db,
            "/session": self.session, "/hash": self.hash, "/queries": self.queries, "/updates": self.updates,
            "/fortunes": self.fortunes, "/cached-queries": self.cached_queries,
        }

    def __rsgi_init__(self, loop) -> None:
        # Called in the worker before its loop runs: the pool belongs to this loop.
        self.pool = loop.run_until_complete(sessions.create_pool())
        loop.run_until_complete(asyncpg_queries.fill_cache(self.world_cache, self.pool))

    def __rsgi_del__(self, loop) -> None:
        loop.run_until_complete(self.pool.close())

    async def __rsgi__(self, scope, protocol) -> None:
        if scope.proto == "http":
            handler = self.routes.get(scope.path)
            if handler is not None:
                await handler(scope, protocol)
            elif scope.path.startswith(STATIC_PREFIX):
                await self.static(scope, protocol)
            else:
                protocol.response_str(*NOT_FOUND)
        elif scope.proto == "ws":
            if scope.path == "/ws":
                await self.echo(protocol)
            else:
                protocol.close(1008)

    async def plaintext(self, scope, protocol):
        protocol.response_bytes(200, TEXT, b"Hello, World!")

    async def async_(self, scope, protocol):
        # The async workload: asyncio's non-blocking sleep (the worker's loop), then plaintext's answer.
        await asyncio.sleep(0.015)
        protocol.response_bytes(200, TEXT, b"Hello, World!")

    async def json(self, scope, protocol):
        protocol.response_str(200, JSON, json.dumps({"message": "Hello, World!"}))

    async def db(self, scope, protocol):
        row = await self.pool.fetchrow("SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000))
        protocol.response_str(200, JSON, json.dumps({"id": row[0], "randomNumber": row[1]}))

    async def session(self, scope, protocol):
        visit = await sessions.visit(self.pool, cookie(scope, sessions.COOKIE))
        headers = TEXT
        if visit.is_new:
            headers = [*TEXT, ("set-cookie", f"{sessions.COOKIE}={visit.uid}; Path=/; HttpOnly; SameSite=Lax")]
        protocol.response_str(200, headers, f"Count is {visit.count}")

    async def hash(self, scope, protocol):
        try:
            n = hashing.parse_n(query_param(scope, "n"))
        except ValueError as reason:
            protocol.response_str(400, TEXT, str(reason))
            return
        # The file read and the hash chain run in the loop's default thread pool, not in the loop.
        digest = await asyncio.get_running_loop().run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n)
        protocol.response_str(200, TEXT, digest)

    async def queries(self, scope, protocol):
        worlds = await asyncpg_queries.random_worlds(self.pool, te.count(query_param(scope, "queries")))
        protocol.response_str(200, JSON, json.dumps(worlds))

    async def updates(self, scope, protocol):
        worlds = await asyncpg_queries.updated_worlds(self.pool, te.count(query_param(scope, "queries")))
        protocol.response_str(200, JSON, json.dumps(worlds))

    async def fortunes(self, scope, protocol):
        page = fortunes_template.render(fortunes=await asyncpg_queries.fortunes(self.pool))
        protocol.response_str(200, HTML, page)

    async def cached_queries(self, scope, protocol):
        protocol.response_str(200, JSON, json.dumps(self.world_cache.pick(te.count(query_param(scope, "count")))))

    async def static(self, scope, protocol):
        """A file directly in STATIC_DIR through RSGI's response_file: Granian opens, reads and sends it in
        Rust, off the event loop, and answers 404 itself when the file is missing."""
        name = scope.path[len(STATIC_PREFIX):]
        if not name or "/" in name or name.startswith("."):
            protocol.response_str(*NOT_FOUND)
            return
        content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
        protocol.response_file(200, [("content-type", content_type)], os.path.join(STATIC_DIR, name))

    async def echo(self, protocol):
        transport = await protocol.accept()
        while True:
            message = await transport.receive()
            if message.kind == WebsocketMessageType.string:
                await transport.send_str(message.data)
            elif message.kind == WebsocketMessageType.bytes:
                await transport.send_bytes(message.data)
            else:
                return


app = App()
