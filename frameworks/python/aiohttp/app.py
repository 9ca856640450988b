"""webshootout workloads on aiohttp's web server (see docs/workloads.md).

`python app.py` serves with aiohttp's own runner (web.run_app), one process; gunicorn's aiohttp
worker (aiohttp.GunicornWebWorker) serves `app:gunicorn_app` in each of its worker processes.
"""

import asyncio

import aiohttp_jinja2
import jinja2
from aiohttp import WSMsgType, web
from shootout_common import asyncpg_items, asyncpg_queries, env, hashing, items, jsoncomp, sessions, upload
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")

POOL = web.AppKey("pool", object)
WORLD_CACHE = web.AppKey("world_cache", te.WorldCache)


def text(body: str, status: int = 200) -> web.Response:
    return web.Response(text=body, status=status)  # text/plain; charset=utf-8


async def plaintext(request: web.Request) -> web.Response:
    return text("Hello, World!")


async def async_(request: web.Request) -> web.Response:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


async def json_(request: web.Request) -> web.Response:
    return web.json_response({"message": "Hello, World!"})


async def db(request: web.Request) -> web.Response:
    row = await request.app[POOL].fetchrow(te.SELECT_WORLD_ASYNCPG, te.random_id())
    return web.json_response(te.world(row["id"], row["randomnumber"]))


async def session(request: web.Request) -> web.Response:
    visit = await sessions.visit(request.app[POOL], request.cookies.get(sessions.COOKIE))
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="Lax")
    return response


async def hash_(request: web.Request) -> web.Response:
    try:
        n = hashing.parse_n(request.query.get("n"))
    except ValueError as reason:
        return text(str(reason), 400)
    # In the loop's default executor, so the file read and the hash chain do not stall the loop.
    loop = asyncio.get_running_loop()
    return text(await loop.run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n))


async def queries(request: web.Request) -> web.Response:
    n = te.count(request.query.get("queries"))
    return web.json_response(await asyncpg_queries.random_worlds(request.app[POOL], n))


async def updates(request: web.Request) -> web.Response:
    n = te.count(request.query.get("queries"))
    return web.json_response(await asyncpg_queries.updated_worlds(request.app[POOL], n))


@aiohttp_jinja2.template("fortunes.html")
async def fortunes(request: web.Request) -> dict:
    return {"fortunes": await asyncpg_queries.fortunes(request.app[POOL])}


async def cached_queries(request: web.Request) -> web.Response:
    return web.json_response(request.app[WORLD_CACHE].pick(te.count(request.query.get("count"))))


async def json_comp(request: web.Request) -> web.Response:
    response = web.json_response(jsoncomp.items(jsoncomp.count(request.query.get("n"))))
    # aiohttp's compression is a setting of the answer (StreamResponse.enable_compression, aiohttp's Web Server
    # Advanced docs): deflate or gzip by the request's Accept-Encoding, zlib's default level, no minimum size. It
    # adds no Vary, which a cache needs to tell the encodings apart.
    response.enable_compression()
    response.headers["Vary"] = "Accept-Encoding"
    return response


async def upload_body(request: web.Request) -> web.Response:
    # request.read(): the whole body, dechunked by aiohttp's parser; past client_max_size it raises 413.
    return text(upload.answer(await request.read()))


# crud: aiohttp's resources with a route per method, its json_response, plain checks (aiohttp has no validation of
# its own) and its HTTP exceptions, asyncpg as db uses.
async def item_fields(request: web.Request) -> tuple[str, int]:
    try:
        body = await request.json()
    except ValueError:
        raise web.HTTPBadRequest(text="the body is not JSON") from None
    try:
        return items.fields(body)
    except ValueError as reason:
        raise web.HTTPUnprocessableEntity(text=str(reason)) from None


def item_id(request: web.Request) -> int:
    return int(request.match_info["item_id"])


async def get_item(request: web.Request) -> web.Response:
    item = await asyncpg_items.get(request.app[POOL], item_id(request))
    if item is None:
        raise web.HTTPNotFound()
    return web.json_response(item)


async def list_items(request: web.Request) -> web.Response:
    try:
        limit, offset = items.page_query(request.query.get("page"), request.query.get("size"))
    except ValueError as reason:
        return text(str(reason), 400)
    return web.json_response(await asyncpg_items.page(request.app[POOL], limit, offset))


async def create_item(request: web.Request) -> web.Response:
    item = await asyncpg_items.create(request.app[POOL], *await item_fields(request))
    location = request.app.router["item"].url_for(item_id=str(item["id"]))
    return web.json_response(item, status=201, headers={"Location": str(location)})


async def update_item(request: web.Request) -> web.Response:
    fields = await item_fields(request)
    item = await asyncpg_items.update(request.app[POOL], item_id(request), *fields)
    if item is None:
        raise web.HTTPNotFound()
    return web.json_response(item)


async def delete_item(request: web.Request) -> web.Response:
    if not await asyncpg_items.delete(request.app[POOL], item_id(request)):
        raise web.HTTPNotFound()
    return web.Response(status=204)


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse()
    await ws.prepare(request)
    async for message in ws:
        if message.type == WSMsgType.TEXT:
            await ws.send_str(message.data)
        elif message.type == WSMsgType.BINARY:
            await ws.send_bytes(message.data)
    return ws


def create_app(pool_size: int) -> web.Application:
    async def database(app: web.Application):
        # Opened in the serving process's own event loop, closed at shutdown.
        async with sessions.create_pool(pool_size) as pool:
            app[POOL] = pool
            app[WORLD_CACHE] = te.WorldCache()
            await asyncpg_queries.fill_cache(app[WORLD_CACHE], pool)
            yield

    # client_max_size: aiohttp's request body limit (web.Application's argument, 1 MiB by default, the largest body
    # the check sends), enforced by request.read() with a 413.
    app = web.Application(client_max_size=upload.MAX_BODY)
    app.cleanup_ctx.append(database)
    # aiohttp-jinja2, aiohttp's Jinja2 integration; it turns autoescaping on by default.
    aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader("templates"))
    app.router.add_get("/plaintext", plaintext)
    app.router.add_get("/async", async_)
    app.router.add_get("/json", json_)
    app.router.add_get("/db", db)
    app.router.add_get("/session", session)
    app.router.add_get("/hash", hash_)
    app.router.add_get("/queries", queries)
    app.router.add_get("/updates", updates)
    app.router.add_get("/fortunes", fortunes)
    app.router.add_get("/cached-queries", cached_queries)
    app.router.add_get("/json-comp", json_comp)
    app.router.add_post("/upload", upload_body)
    app.router.add_get("/ws", echo)
    collection = app.router.add_resource("/items")
    collection.add_route("GET", list_items)
    collection.add_route("POST", create_item)
    item = app.router.add_resource(r"/items/{item_id:\d+}", name="item")
    item.add_route("GET", get_item)
    item.add_route("PUT", update_item)
    item.add_route("DELETE", delete_item)
    # aiohttp's static route (sendfile underneath) serves STATIC_DIR at /static.
    app.router.add_static("/static", env.value("STATIC_DIR"))
    return app


async def gunicorn_app() -> web.Application:
    """The factory gunicorn's aiohttp worker awaits in each worker: DB_POOL connections per process."""
    return create_app(env.db_pool())


if __name__ == "__main__":
    # One process serves every connection: its pool is the whole DB_POOL_TOTAL. No access log.
    # Given TLS_CERT/TLS_KEY, run_app's ssl_context serves TLS only; without them, None: cleartext.
    web.run_app(create_app(env.db_pool_total()), host=env.value("HOST"), port=env.positive_int("PORT"),
                ssl_context=env.tls_context(), access_log=None, print=None)
