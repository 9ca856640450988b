"""webshootout workloads on Quart (see docs/workloads.md)."""

import asyncio
import random

from quart import Quart, Response, render_template, request, websocket
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")

# Quart's own static route serves STATIC_DIR at /static.
app = Quart(__name__, static_folder=env.value("STATIC_DIR"), static_url_path="/static")


@app.before_serving
async def open_pool() -> None:
    # Runs in every worker process, inside that worker's own event loop.
    app.pool = await sessions.create_pool()
    app.world_cache = te.WorldCache()
    await asyncpg_queries.fill_cache(app.world_cache, app.pool)


@app.after_serving
async def close_pool() -> None:
    await app.pool.close()


def text(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/plain")


@app.get("/plaintext")
async def plaintext() -> Response:
    return text("Hello, World!")


@app.get("/async")
async def async_() -> Response:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


@app.get("/json")
async def json_() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.get("/db")
async def db() -> dict[str, int]:
    row = await app.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return {"id": row["id"], "randomNumber": row["randomnumber"]}


@app.get("/session")
async def session() -> Response:
    visit = await sessions.visit(app.pool, request.cookies.get(sessions.COOKIE))
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="Lax")
    return response


# A plain `def`: Quart runs it in a thread executor, so the file read and the hash chain
# do not stall the event loop's other connections.
@app.get("/hash")
def hash_() -> Response:
    try:
        n = hashing.parse_n(request.args.get("n"))
    except ValueError as reason:
        return text(str(reason), 400)
    return text(hashing.iterated_sha256(HASH_FILE, n))


@app.get("/queries")
async def queries() -> list[dict[str, int]]:
    return await asyncpg_queries.random_worlds(app.pool, te.count(request.args.get("queries")))


@app.get("/updates")
async def updates() -> list[dict[str, int]]:
    return await asyncpg_queries.updated_worlds(app.pool, te.count(request.args.get("queries")))


@app.get("/fortunes")
async def fortunes() -> str:
    # Quart's Jinja2 environment autoescapes .html templates.
    return await render_template("fortunes.html", fortunes=await asyncpg_queries.fortunes(app.pool))


@app.get("/cached-queries")
async def cached_queries() -> list[dict[str, int]]:
    return app.world_cache.pick(te.count(request.args.get("count")))


@app.websocket("/ws")
async def echo() -> None:
    while True:
        await websocket.send(await websocket.receive())
