"""webshootout workloads on Sanic (see docs/workloads.md)."""

import asyncio
import random

from sanic import Sanic
from sanic.response import HTTPResponse
from sanic.response import json as json_response
from sanic.response import text
from sanic_compress import Compress
from sanic_ext import render
from shootout_common import asyncpg_queries, env, hashing, jsoncomp, sessions, upload
from shootout_common import techempower as te

from http_date import http_date

HASH_FILE = env.value("HASH_FILE")

app = Sanic("webshootout")
# Sanic Extensions (installed for its Jinja2 templating, which autoescapes .html templates) would also
# serve OpenAPI documents and UIs: a production API does not.
app.config.OAS = False
# Sanic's request body limit (its configuration docs, REQUEST_MAX_SIZE, 100 MB by default): a 413 past it, for a
# chunked body as it arrives.
app.config.REQUEST_MAX_SIZE = upload.MAX_BODY
# Sanic has no compression of its own; sanic_compress, the port of Flask-Compress to Sanic, at its defaults: gzip
# level 6 for application/json (and HTML, CSS, XML, JavaScript) answers of 500 bytes and more whose client accepts
# gzip, Vary: Accept-Encoding added. A response middleware, so app-wide.
Compress(app)
app.static("/static", env.value("STATIC_DIR"), name="static")


@app.before_server_start
async def open_pool(app: Sanic) -> None:
    # Runs in every worker process, inside that worker's own event loop.
    app.ctx.pool = await sessions.create_pool()
    app.ctx.world_cache = te.WorldCache()
    await asyncpg_queries.fill_cache(app.ctx.world_cache, app.ctx.pool)


@app.after_server_stop
async def close_pool(app: Sanic) -> None:
    await app.ctx.pool.close()


@app.on_response
async def origin_headers(request, response: HTTPResponse) -> None:
    # Sanic's server sets neither; RFC 9110 wants Date from an origin server with a clock, and a
    # Sanic deployment that faces clients directly has no proxy in front to add it.
    response.headers["Date"] = http_date()
    response.headers["Server"] = "Sanic"


@app.get("/plaintext")
async def plaintext(request) -> HTTPResponse:
    return text("Hello, World!")


@app.get("/async")
async def async_(request) -> HTTPResponse:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


@app.get("/json")
async def json_(request) -> HTTPResponse:
    return json_response({"message": "Hello, World!"})


@app.get("/db")
async def db(request) -> HTTPResponse:
    row = await request.app.ctx.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return json_response({"id": row["id"], "randomNumber": row["randomnumber"]})


@app.get("/session")
async def session(request) -> HTTPResponse:
    visit = await sessions.visit(request.app.ctx.pool, request.cookies.get(sessions.COOKIE))
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        # Sanic marks cookies Secure by default; this server speaks plain HTTP.
        response.add_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="Lax", secure=False)
    return response


@app.get("/hash")
async def hash_(request) -> HTTPResponse:
    try:
        n = hashing.parse_n(request.args.get("n"))
    except ValueError as reason:
        return text(str(reason), status=400)
    # In a worker thread, so the file read and the hash chain do not stall the event loop.
    return text(await asyncio.to_thread(hashing.iterated_sha256, HASH_FILE, n))


@app.get("/queries")
async def queries(request) -> HTTPResponse:
    n = te.count(request.args.get("queries"))
    return json_response(await asyncpg_queries.random_worlds(request.app.ctx.pool, n))


@app.get("/updates")
async def updates(request) -> HTTPResponse:
    n = te.count(request.args.get("queries"))
    return json_response(await asyncpg_queries.updated_worlds(request.app.ctx.pool, n))


@app.get("/fortunes")
async def fortunes(request) -> HTTPResponse:
    fortunes = await asyncpg_queries.fortunes(request.app.ctx.pool)
    return await render("fortunes.html", context={"fortunes": fortunes})


@app.get("/cached-queries")
async def cached_queries(request) -> HTTPResponse:
    return json_response(request.app.ctx.world_cache.pick(te.count(request.args.get("count"))))


@app.get("/json-comp")
async def json_comp(request) -> HTTPResponse:
    return json_response(jsoncomp.items(jsoncomp.count(request.args.get("n"))))


@app.post("/upload")
async def upload_body(request) -> HTTPResponse:
    # request.body: Sanic reads the whole body (dechunked) before the handler runs, as it does by default.
    return text(upload.answer(request.body))


@app.websocket("/ws")
async def echo(request, ws) -> None:
    async for message in ws:
        await ws.send(message)
