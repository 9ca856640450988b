"""webshootout workloads on Starlette (see docs/workloads.md)."""

import asyncio
import contextlib
import random

from shootout_common import asyncpg_items, asyncpg_queries, env, hashing, items, jsoncomp, sessions, upload
from shootout_common import techempower as te
from starlette.applications import Starlette
from starlette.endpoints import HTTPEndpoint
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.templating import Jinja2Templates

HASH_FILE = env.value("HASH_FILE")
# Starlette's Jinja2 integration; its environment autoescapes .html templates.
templates = Jinja2Templates(directory="templates")


@contextlib.asynccontextmanager
async def lifespan(app):
    # Opened in the lifespan, i.e. inside each worker's own event loop after the fork.
    async with sessions.create_pool() as pool:
        app.state.pool = pool
        app.state.world_cache = te.WorldCache()
        await asyncpg_queries.fill_cache(app.state.world_cache, pool)
        yield


async def plaintext(request):
    return PlainTextResponse("Hello, World!")


async def async_(request):
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return PlainTextResponse("Hello, World!")


async def json_(request):
    return JSONResponse({"message": "Hello, World!"})


async def db(request):
    row = await request.app.state.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return JSONResponse({"id": row["id"], "randomNumber": row["randomnumber"]})


async def session(request):
    visit = await sessions.visit(request.app.state.pool, request.cookies.get(sessions.COOKIE))
    response = PlainTextResponse(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="lax")
    return response


# A plain `def`: Starlette runs it in its thread pool, so the file read and the hash chain
# do not stall the event loop's other connections.
def hash_(request):
    try:
        n = hashing.parse_n(request.query_params.get("n"))
    except ValueError as reason:
        return PlainTextResponse(str(reason), 400)
    return PlainTextResponse(hashing.iterated_sha256(HASH_FILE, n))


async def queries(request):
    pool = request.app.state.pool
    return JSONResponse(await asyncpg_queries.random_worlds(pool, te.count(request.query_params.get("queries"))))


async def updates(request):
    pool = request.app.state.pool
    return JSONResponse(await asyncpg_queries.updated_worlds(pool, te.count(request.query_params.get("queries"))))


async def fortunes(request):
    fortunes = await asyncpg_queries.fortunes(request.app.state.pool)
    return templates.TemplateResponse(request, "fortunes.html", {"fortunes": fortunes})


async def cached_queries(request):
    return JSONResponse(request.app.state.world_cache.pick(te.count(request.query_params.get("count"))))


async def json_comp(request):
    return JSONResponse(jsoncomp.items(jsoncomp.count(request.query_params.get("n"))))


async def upload_body(request):
    # request.stream(): the body as the server hands it over, hashed piece by piece; the app's max_body_size
    # stops it past the limit.
    digest = upload.BodyDigest()
    async for piece in request.stream():
        digest.update(piece)
    return PlainTextResponse(digest.answer())


# crud: Starlette's HTTPEndpoint, one method per verb, on the router's int convertor; plain checks, as Starlette has
# no validation of its own; asyncpg as db uses.
async def item_fields(request) -> tuple[str, int]:
    try:
        body = await request.json()
    except ValueError:
        raise HTTPException(400, "the body is not JSON") from None
    try:
        return items.fields(body)
    except ValueError as reason:
        raise HTTPException(422, str(reason)) from None


class ItemCollection(HTTPEndpoint):
    async def get(self, request):
        params = request.query_params
        try:
            limit, offset = items.page_query(params.get("page"), params.get("size"))
        except ValueError as reason:
            return PlainTextResponse(str(reason), 400)
        return JSONResponse(await asyncpg_items.page(request.app.state.pool, limit, offset))

    async def post(self, request):
        item = await asyncpg_items.create(request.app.state.pool, *await item_fields(request))
        location = str(request.url_for("item", item_id=item["id"]))
        return JSONResponse(item, 201, headers={"Location": location})


class ItemResource(HTTPEndpoint):
    async def get(self, request):
        item = await asyncpg_items.get(request.app.state.pool, request.path_params["item_id"])
        if item is None:
            raise HTTPException(404)
        return JSONResponse(item)

    async def put(self, request):
        fields = await item_fields(request)
        item = await asyncpg_items.update(request.app.state.pool, request.path_params["item_id"], *fields)
        if item is None:
            raise HTTPException(404)
        return JSONResponse(item)

    async def delete(self, request):
        if not await asyncpg_items.delete(request.app.state.pool, request.path_params["item_id"]):
            raise HTTPException(404)
        return Response(status_code=204)


async def echo(websocket):
    await websocket.accept()
    async for message in websocket.iter_text():
        await websocket.send_text(message)


app = Starlette(
    routes=[
        Route("/plaintext", plaintext),
        Route("/async", async_),
        Route("/json", json_),
        Route("/db", db),
        Route("/session", session),
        Route("/hash", hash_),
        Route("/queries", queries),
        Route("/updates", updates),
        Route("/fortunes", fortunes),
        Route("/cached-queries", cached_queries),
        Route("/json-comp", json_comp),
        Route("/upload", upload_body, methods=["POST"]),
        Route("/items", ItemCollection),
        Route("/items/{item_id:int}", ItemResource, name="item"),
        WebSocketRoute("/ws", echo),
        Mount("/static", StaticFiles(directory=env.value("STATIC_DIR"))),
    ],
    # Starlette's GZipMiddleware (its Middleware docs), at its defaults: gzip level 9 for answers of 500 bytes and
    # more whose client accepts gzip, Vary: Accept-Encoding added.
    middleware=[Middleware(GZipMiddleware)],
    lifespan=lifespan,
    # Starlette's request body limit (Starlette(max_body_size=...), RequestBodyLimitMiddleware): a 413 past it,
    # chunked bodies counted as they arrive; without it the body is unlimited.
    max_body_size=upload.MAX_BODY,
)
