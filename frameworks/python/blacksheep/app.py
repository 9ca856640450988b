"""webshootout workloads on BlackSheep (see docs/workloads.md), served by uvicorn."""

import asyncio

from blacksheep import (
    Application,
    Cookie,
    CookieSameSiteMode,
    Request,
    WebSocket,
    WebSocketDisconnectError,
    get,
    json,
    text,
    ws,
)
from blacksheep.server.rendering.jinja2 import JinjaRenderer
from blacksheep.server.responses import view_async
from blacksheep.settings.html import html_settings
from jinja2 import FileSystemLoader
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")

app = Application()
# BlackSheep's Jinja2 renderer (views/*.jinja, autoescaped), with async rendering for view_async.
html_settings.use(JinjaRenderer(loader=FileSystemLoader("views"), enable_async=True))
# BlackSheep's file handler serves STATIC_DIR at /static.
app.serve_files(env.value("STATIC_DIR"), root_path="static")


class Database:
    """The worker's asyncpg pool and cached's rows, opened in its own event loop at start."""

    pool = None
    world_cache = te.WorldCache()


@app.lifespan
async def database():
    async with sessions.create_pool() as pool:
        Database.pool = pool
        await asyncpg_queries.fill_cache(Database.world_cache, pool)
        yield


def query(request: Request, name: str) -> str | None:
    values = request.query.get(name)
    return values[0] if values else None


@get("/plaintext")
async def plaintext():
    return text("Hello, World!")


@get("/async")
async def async_():
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


@get("/json")
async def json_():
    return json({"message": "Hello, World!"})


@get("/db")
async def db():
    row = await Database.pool.fetchrow(te.SELECT_WORLD_ASYNCPG, te.random_id())
    return json(te.world(row["id"], row["randomnumber"]))


@get("/session")
async def session(request: Request):
    visit = await sessions.visit(Database.pool, request.cookies.get(sessions.COOKIE))
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(
            Cookie(sessions.COOKIE, visit.uid, path="/", http_only=True, same_site=CookieSameSiteMode.LAX)
        )
    return response


@get("/hash")
async def hash_(request: Request):
    try:
        n = hashing.parse_n(query(request, "n"))
    except ValueError as reason:
        return text(str(reason), 400)
    # In a worker thread, so the file read and the hash chain do not stall the event loop.
    return text(await asyncio.to_thread(hashing.iterated_sha256, HASH_FILE, n))


@get("/queries")
async def queries(request: Request):
    return json(await asyncpg_queries.random_worlds(Database.pool, te.count(query(request, "queries"))))


@get("/updates")
async def updates(request: Request):
    return json(await asyncpg_queries.updated_worlds(Database.pool, te.count(query(request, "queries"))))


@get("/fortunes")
async def fortunes():
    return await view_async("fortunes", {"fortunes": await asyncpg_queries.fortunes(Database.pool)})


@get("/cached-queries")
async def cached_queries(request: Request):
    return json(Database.world_cache.pick(te.count(query(request, "count"))))


@ws("/ws")
async def echo(websocket: WebSocket):
    await websocket.accept()
    try:
        while True:
            await websocket.send_text(await websocket.receive_text())
    except WebSocketDisconnectError:
        pass
