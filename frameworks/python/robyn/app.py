"""webshootout workloads on Robyn (see docs/workloads.md), on Robyn's own Rust server.

Started as `python app.py --processes N --workers 1`: Robyn's argument parser reads them.
"""

import asyncio
import mimetypes
import os
import signal
from http.cookies import SimpleCookie

from robyn import Headers, Request, Response, Robyn, jsonify
from robyn.responses import FileResponse
from robyn.templating import JinjaTemplate
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")
HERE = os.path.dirname(os.path.abspath(__file__))

app = Robyn(__file__)
# Robyn's server sets Date but no Server header; the contract wants one.
app.add_response_header("Server", "Robyn")
# Robyn's Jinja2 integration; its environment autoescapes .html templates.
templates = JinjaTemplate(os.path.join(HERE, "templates"))
STATIC_DIR = env.value("STATIC_DIR")


class Database:
    """The process's asyncpg pool and cached's rows, opened in its own event loop at start."""

    pool = None
    world_cache = te.WorldCache()


@app.startup_handler
async def open_pool() -> None:
    Database.pool = await sessions.create_pool()
    await asyncpg_queries.fill_cache(Database.world_cache, Database.pool)


@app.shutdown_handler
async def close_pool() -> None:
    await Database.pool.close()


def text(body: str, status: int = 200, headers: dict | None = None) -> Response:
    return Response(status, Headers({"Content-Type": "text/plain; charset=utf-8", **(headers or {})}), body)


def json(value) -> Response:
    return Response(200, Headers({"Content-Type": "application/json"}), jsonify(value))


@app.get("/plaintext")
async def plaintext(request: Request) -> Response:
    return text("Hello, World!")


@app.get("/async")
async def async_(request: Request) -> Response:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


@app.get("/json")
async def json_(request: Request) -> Response:
    return json({"message": "Hello, World!"})


@app.get("/db")
async def db(request: Request) -> Response:
    row = await Database.pool.fetchrow(te.SELECT_WORLD_ASYNCPG, te.random_id())
    return json(te.world(row["id"], row["randomnumber"]))


@app.get("/session")
async def session(request: Request) -> Response:
    # Robyn's Request carries the Cookie header unparsed.
    cookie = SimpleCookie(request.headers.get("cookie") or "").get(sessions.COOKIE)
    visit = await sessions.visit(Database.pool, cookie.value if cookie else None)
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(sessions.COOKIE, visit.uid, path="/", http_only=True, same_site="Lax")
    return response


@app.get("/hash")
async def hash_(request: Request) -> Response:
    try:
        n = hashing.parse_n(request.query_params.get("n", None))
    except ValueError as reason:
        return text(str(reason), 400)
    # In a worker thread, so the file read and the hash chain do not stall the event loop.
    return text(await asyncio.to_thread(hashing.iterated_sha256, HASH_FILE, n))


@app.get("/queries")
async def queries(request: Request) -> Response:
    n = te.count(request.query_params.get("queries", None))
    return json(await asyncpg_queries.random_worlds(Database.pool, n))


@app.get("/updates")
async def updates(request: Request) -> Response:
    n = te.count(request.query_params.get("queries", None))
    return json(await asyncpg_queries.updated_worlds(Database.pool, n))


@app.get("/fortunes")
async def fortunes(request: Request) -> Response:
    return templates.render_template("fortunes.html", fortunes=await asyncpg_queries.fortunes(Database.pool))


@app.get("/cached-queries")
async def cached_queries(request: Request) -> Response:
    return json(Database.world_cache.pick(te.count(request.query_params.get("count", None))))


# Robyn's FileResponse (the file is read and sent by its Rust server) from a route, not its
# serve_directory: the directory handler's answers skip the global response headers, so they would
# carry no Server header.
@app.get("/static/:name")
async def static(request: Request):
    name = request.path_params["name"]
    path = os.path.join(STATIC_DIR, name)
    if name in (".", "..") or "/" in name or not os.path.isfile(path):
        return text("not found", 404)
    content_type = mimetypes.guess_type(name)[0] or "application/octet-stream"
    return FileResponse(path, headers=Headers({"Content-Type": content_type}))


@app.websocket("/ws")
async def echo(websocket) -> None:
    while True:
        await websocket.send_text(await websocket.receive_text())


if __name__ == "__main__":
    # With one process Robyn serves in this one and installs no SIGTERM handler of its own (it does for
    # its process pool), and its Rust server's graceful stop leaves the Python event loop running: SIGTERM
    # takes Ctrl+C's path instead, the KeyboardInterrupt that Robyn's serving loop ends on.
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    app.start(host=env.value("HOST"), port=env.positive_int("PORT"))
