"""webshootout workloads as a bare ASGI application on uvicorn, no framework (see docs/workloads.md).

The floor under the ASGI frameworks: the same server, driver and shared code as starlette and fastapi,
with the routing, query parsing, cookies, JSON and file serving that a framework would add done here
in a few lines of plain Python against the ASGI spec (https://asgi.readthedocs.io/en/latest/specs/).
uvicorn adds the Server and Date headers itself (its server_header and date_header defaults).
"""

import asyncio
import json
import mimetypes
import os
import random
from http.cookies import CookieError, SimpleCookie
from urllib.parse import parse_qs

import jinja2
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")
STATIC_DIR = env.value("STATIC_DIR")
STATIC_PREFIX = "/static/"

# Jinja2, the engine the ASGI frameworks here render with, so fortunes differs from theirs only by
# what the framework wraps around it; autoescape is on for every template.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"), autoescape=True)
fortunes_template = templates.get_template("fortunes.html")

TEXT = b"text/plain; charset=utf-8"
JSON = b"application/json"
HTML = b"text/html; charset=utf-8"


class State:
    """What the lifespan opens in this worker's event loop (uvicorn starts each worker process anew,
    so nothing here is shared across processes)."""

    pool = None
    world_cache = te.WorldCache()


async def respond(send, status: int, content_type: bytes, body: bytes, extra_headers=()) -> None:
    await send({
        "type": "http.response.start",
        "status": status,
        "headers": [(b"content-type", content_type), (b"content-length", str(len(body)).encode()),
                    *extra_headers],
    })
    await send({"type": "http.response.body", "body": body})


async def respond_json(send, value) -> None:
    await respond(send, 200, JSON, json.dumps(value).encode())


def query_param(scope, name: str) -> str | None:
    # keep_blank_values: "?n=" is a present but empty n (an integer error), not a missing one.
    values = parse_qs(scope["query_string"].decode("latin-1"), keep_blank_values=True).get(name)
    return values[0] if values else None


def cookie(scope, name: str) -> str | None:
    for key, value in scope["headers"]:
        if key == b"cookie":
            try:
                morsel = SimpleCookie(value.decode("latin-1")).get(name)
            except CookieError:
                return None
            return morsel.value if morsel else None
    return None


async def plaintext(scope, send):
    await respond(send, 200, TEXT, b"Hello, World!")


async def async_(scope, send):
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    await respond(send, 200, TEXT, b"Hello, World!")


async def json_(scope, send):
    await respond_json(send, {"message": "Hello, World!"})


async def db(scope, send):
    row = await State.pool.fetchrow("SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000))
    await respond_json(send, {"id": row[0], "randomNumber": row[1]})


async def session(scope, send):
    visit = await sessions.visit(State.pool, cookie(scope, sessions.COOKIE))
    extra = ()
    if visit.is_new:
        extra = ((b"set-cookie", f"{sessions.COOKIE}={visit.uid}; Path=/; HttpOnly; SameSite=Lax".encode()),)
    await respond(send, 200, TEXT, f"Count is {visit.count}".encode(), extra)


async def hash_(scope, send):
    try:
        n = hashing.parse_n(query_param(scope, "n"))
    except ValueError as reason:
        await respond(send, 400, TEXT, str(reason).encode())
        return
    # The file read and the hash chain run in the loop's default thread pool, not in the loop.
    digest = await asyncio.get_running_loop().run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n)
    await respond(send, 200, TEXT, digest.encode())


async def queries(scope, send):
    await respond_json(send, await asyncpg_queries.random_worlds(State.pool, te.count(query_param(scope, "queries"))))


async def updates(scope, send):
    await respond_json(send, await asyncpg_queries.updated_worlds(State.pool, te.count(query_param(scope, "queries"))))


async def fortunes(scope, send):
    page = fortunes_template.render(fortunes=await asyncpg_queries.fortunes(State.pool))
    await respond(send, 200, HTML, page.encode())


async def cached_queries(scope, send):
    await respond_json(send, State.world_cache.pick(te.count(query_param(scope, "count"))))


def read_file(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


async def static(scope, send):
    """The app's own file handler, as bare ASGI has none: a file directly in STATIC_DIR, read per request
    in the thread pool. uvicorn implements neither ASGI's zero-copy nor its path-send extension."""
    name = scope["path"][len(STATIC_PREFIX):]
    if not name or "/" in name or name.startswith("."):
        await respond(send, 404, TEXT, b"Not Found")
        return
    try:
        body = await asyncio.get_running_loop().run_in_executor(None, read_file, os.path.join(STATIC_DIR, name))
    except (FileNotFoundError, IsADirectoryError):
        await respond(send, 404, TEXT, b"Not Found")
        return
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    await respond(send, 200, content_type.encode(), body)


ROUTES = {
    "/plaintext": plaintext,
    "/async": async_,
    "/json": json_,
    "/db": db,
    "/session": session,
    "/hash": hash_,
    "/queries": queries,
    "/updates": updates,
    "/fortunes": fortunes,
    "/cached-queries": cached_queries,
}


async def echo(receive, send):
    if (await receive())["type"] != "websocket.connect":
        return
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        if message.get("text") is not None:
            await send({"type": "websocket.send", "text": message["text"]})
        else:
            await send({"type": "websocket.send", "bytes": message["bytes"]})


async def lifespan(receive, send):
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            try:
                State.pool = await sessions.create_pool()
                await asyncpg_queries.fill_cache(State.world_cache, State.pool)
            except Exception as error:  # told to uvicorn, which logs it and stops the worker
                await send({"type": "lifespan.startup.failed", "message": repr(error)})
                return
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await State.pool.close()
            await send({"type": "lifespan.shutdown.complete"})
            return


async def app(scope, receive, send):
    kind = scope["type"]
    if kind == "http":
        path = scope["path"]
        handler = ROUTES.get(path)
        if handler is not None:
            await handler(scope, send)
        elif path.startswith(STATIC_PREFIX):
            await static(scope, send)
        else:
            await respond(send, 404, TEXT, b"Not Found")
    elif kind == "websocket":
        if scope["path"] == "/ws":
            await echo(receive, send)
        else:
            await send({"type": "websocket.close", "code": 1008})
    elif kind == "lifespan":
        await lifespan(receive, send)
