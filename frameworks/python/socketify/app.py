"""webshootout workloads on socketify.py (see docs/workloads.md): uWebSockets' C++ server through CFFI.

Started by socketify's own CLI, `python -m socketify app:run --workers N` (https://docs.socketify.dev/cli.html):
it forks N - 1 processes, and each process (the first one too) builds its own App, hands it to run() below
to add the routes, runs on_start in the App's event loop, listens on the shared port and serves. Handlers
take socketify's (res, req); the coroutine ones run on the App's asyncio loop, which steps uWebSockets'
libuv loop between its own callbacks.
"""

import asyncio
import logging
import os
import sys

import jinja2
from socketify import App
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

TEXT = "text/plain; charset=utf-8"
HTML = "text/html; charset=utf-8"
HELLO = b"Hello, World!"

HASH_FILE = env.value("HASH_FILE")
STATIC_DIR = env.value("STATIC_DIR")
HERE = os.path.dirname(os.path.abspath(__file__))

# Jinja2, as socketify's template docs plug in, with autoescape on (their example helper leaves it off) and
# rendered here rather than by res.render(), which answers text/html without the charset fortunes needs.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader(os.path.join(HERE, "templates")), autoescape=True)
fortunes_template = templates.get_template("fortunes.html")


class Database:
    """This process's asyncpg pool and cached's rows, opened by on_start inside its own App's loop (the CLI
    forks before any App exists, so nothing here crosses a fork)."""

    pool = None
    world_cache = te.WorldCache()


async def open_database() -> None:
    try:
        Database.pool = await sessions.create_pool()
        await asyncpg_queries.fill_cache(Database.world_cache, Database.pool)
    except Exception:
        # socketify logs a failed on_start and serves anyway; a server without its pool must not look ready.
        logging.exception("socketify worker %d could not open its database pool", os.getpid())
        sys.exit(1)


async def close_database() -> None:
    if Database.pool is not None:
        await Database.pool.close()


def status(res, code: int | None):
    """uWebSockets writes "200 OK" with the first header when no status came before it, so any other status
    must be written first. It then adds Date and its own Server header (uWebSockets_20) to every answer."""
    if code is not None:
        res.write_status(code)
    return res


def text(res, body, code: int | None = None) -> None:
    status(res, code).write_header("Content-Type", TEXT).end(body)


# A coroutine handler runs up to its first await inside socketify's callback: req is only valid there, and
# the response is corked there. After an await, the answer is sent from res.cork(), which packs the status
# line, the headers and the body into one write (https://docs.socketify.dev/corking.html).


def plaintext(res, req) -> None:
    text(res, HELLO)


async def async_(res, req) -> None:
    # The async workload: asyncio's non-blocking sleep on the App's loop, then plaintext's answer.
    await asyncio.sleep(0.015)
    res.cork(lambda res: text(res, HELLO))


def json_(res, req) -> None:
    # socketify's JSON path, as in every JSON answer here: end() serializes a value that is not str or bytes
    # with the App's serializer (the json module unless app.json_serializer() sets another) and sets
    # Content-Type: application/json.
    res.end({"message": "Hello, World!"})


async def db(res, req) -> None:
    row = await Database.pool.fetchrow(te.SELECT_WORLD_ASYNCPG, te.random_id())
    res.cork(lambda res: res.end(te.world(row[0], row[1])))


async def session(res, req) -> None:
    visit = await sessions.visit(Database.pool, req.get_cookie(sessions.COOKIE))

    def answer(res):
        if visit.is_new:
            # socketify adds the Set-Cookie header when the response ends.
            res.set_cookie(sessions.COOKIE, visit.uid, {"path": "/", "httponly": True, "samesite": "Lax"})
        text(res, f"Count is {visit.count}")

    res.cork(answer)


async def hash_(res, req) -> None:
    try:
        n = hashing.parse_n(req.get_query("n"))
    except ValueError as reason:
        text(res, str(reason), 400)
        return
    # The file read and the hash chain run in the loop's default thread pool, not in the loop.
    digest = await asyncio.get_running_loop().run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n)
    res.cork(lambda res: text(res, digest))


async def queries(res, req) -> None:
    worlds = await asyncpg_queries.random_worlds(Database.pool, te.count(req.get_query("queries")))
    res.cork(lambda res: res.end(worlds))


async def updates(res, req) -> None:
    worlds = await asyncpg_queries.updated_worlds(Database.pool, te.count(req.get_query("queries")))
    res.cork(lambda res: res.end(worlds))


async def fortunes(res, req) -> None:
    page = fortunes_template.render(fortunes=await asyncpg_queries.fortunes(Database.pool))
    res.cork(lambda res: res.write_header("Content-Type", HTML).end(page))


def cached_queries(res, req) -> None:
    res.end(Database.world_cache.pick(te.count(req.get_query("count"))))


def not_found(res, req) -> None:
    text(res, "Not Found", 404)


def echo(ws, message, opcode) -> None:
    # A text frame arrives decoded as str and goes back with its own opcode.
    ws.send(message, opcode)


def run(app: App) -> None:
    """What socketify's CLI calls with each worker's App: its lifespan hooks, routes and WebSocket."""
    app.on_start(open_database)
    app.on_shutdown(close_database)
    app.get("/plaintext", plaintext)
    app.get("/async", async_)
    app.get("/json", json_)
    app.get("/db", db)
    app.get("/session", session)
    app.get("/hash", hash_)
    app.get("/queries", queries)
    app.get("/updates", updates)
    app.get("/fortunes", fortunes)
    app.get("/cached-queries", cached_queries)
    # socketify's static files (https://docs.socketify.dev/static-files.html): its sendfile per request,
    # with Content-Type from mimetypes, Last-Modified and 304, byte ranges and 404.
    app.static("/static", STATIC_DIR)
    app.ws("/ws", {
        # The CLI's own WebSocket defaults (--ws-max-size, no compression) rather than the 16 KiB a
        # behaviour dict gets when it names no max_payload_length.
        "max_payload_length": 16 * 1024 * 1024,
        "compression": 0,
        "idle_timeout": 120,
        "message": echo,
    })
    app.any("/*", not_found)
