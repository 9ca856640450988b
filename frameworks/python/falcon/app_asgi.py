"""webshootout workloads on Falcon's ASGI app (falcon.asgi), under gunicorn with uvicorn workers.

The same workloads as app.py plus websocket, which Falcon serves only as an ASGI app.
"""

import asyncio
import random

import falcon
import falcon.asgi
import jinja2
from shootout_common import asyncpg_items, asyncpg_queries, env, hashing, items, sessions, upload
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")

# Falcon has no template engine of its own; its docs pair it with Jinja2. Autoescaping for .html.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"), autoescape=jinja2.select_autoescape())


class Pool:
    """Opens the asyncpg pool in the worker's own event loop, at ASGI lifespan startup."""

    pool = None
    world_cache = te.WorldCache()

    async def process_startup(self, scope, event) -> None:
        Pool.pool = await sessions.create_pool()
        # cached's rows, once per worker.
        await asyncpg_queries.fill_cache(Pool.world_cache, Pool.pool)

    async def process_shutdown(self, scope, event) -> None:
        await Pool.pool.close()


def text(resp: falcon.asgi.Response, body: str, status: str = falcon.HTTP_200) -> None:
    resp.status = status
    resp.content_type = falcon.MEDIA_TEXT  # "text/plain; charset=utf-8"
    resp.text = body


class Plaintext:
    async def on_get(self, req, resp) -> None:
        text(resp, "Hello, World!")


class Async:
    async def on_get(self, req, resp) -> None:
        # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
        await asyncio.sleep(0.015)
        text(resp, "Hello, World!")


class Json:
    async def on_get(self, req, resp) -> None:
        resp.media = {"message": "Hello, World!"}  # Falcon's JSON media handler


class Db:
    async def on_get(self, req, resp) -> None:
        row = await Pool.pool.fetchrow(
            "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
        )
        resp.media = {"id": row["id"], "randomNumber": row["randomnumber"]}


class Session:
    async def on_get(self, req, resp) -> None:
        values = req.get_cookie_values(sessions.COOKIE)
        visit = await sessions.visit(Pool.pool, values[0] if values else None)
        text(resp, f"Count is {visit.count}")
        if visit.is_new:
            # Plain HTTP here: Falcon marks cookies Secure by default, which a client would not send back.
            resp.set_cookie(sessions.COOKIE, visit.uid, secure=False, http_only=True, same_site="Lax")


class Hash:
    async def on_get(self, req, resp) -> None:
        try:
            n = hashing.parse_n(req.get_param("n"))
        except ValueError as reason:
            text(resp, str(reason), falcon.HTTP_400)
            return
        loop = asyncio.get_running_loop()
        text(resp, await loop.run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n))


class Queries:
    async def on_get(self, req, resp) -> None:
        resp.media = await asyncpg_queries.random_worlds(Pool.pool, te.count(req.get_param("queries")))


class Updates:
    async def on_get(self, req, resp) -> None:
        resp.media = await asyncpg_queries.updated_worlds(Pool.pool, te.count(req.get_param("queries")))


class Fortunes:
    async def on_get(self, req, resp) -> None:
        fortunes = await asyncpg_queries.fortunes(Pool.pool)
        resp.content_type = falcon.MEDIA_HTML  # "text/html; charset=utf-8"
        resp.text = templates.get_template("fortunes.html").render(fortunes=fortunes)


class CachedQueries:
    async def on_get(self, req, resp) -> None:
        resp.media = Pool.world_cache.pick(te.count(req.get_param("count")))


def too_large() -> falcon.HTTPContentTooLarge:
    return falcon.HTTPContentTooLarge(description=f"the body is over {upload.MAX_BODY} bytes")


class Upload:
    async def on_post(self, req, resp) -> None:
        # Falcon sets no body limit of its own (nor does uvicorn): a declared length over it is refused at once, a
        # chunked body once it grows past it.
        if (req.content_length or 0) > upload.MAX_BODY:
            raise too_large()
        # req.stream: the body as the ASGI server hands it over (dechunked), piece by piece.
        digest = upload.BodyDigest()
        async for piece in req.stream:
            digest.update(piece)
            if digest.size > upload.MAX_BODY:
                raise too_large()
        text(resp, digest.answer())


# crud: Falcon resources (a responder per method) on the router's int converter, req.get_media() (Falcon's own 400
# for a body that is not JSON), plain checks from shootout_common.items (Falcon has no schema validation without
# an extra package), get_param_as_int's bounds for page and size (its own 400), asyncpg_items as db uses.
async def item_fields(req) -> tuple[str, int]:
    try:
        return items.fields(await req.get_media())
    except ValueError as reason:
        raise falcon.HTTPUnprocessableEntity(description=str(reason)) from None


class Items:
    async def on_get(self, req, resp) -> None:
        page = req.get_param_as_int("page", min_value=1, max_value=items.INT_MAX, default=items.PAGE)
        size = req.get_param_as_int("size", min_value=1, max_value=items.MAX_SIZE, default=items.SIZE)
        resp.media = await asyncpg_items.page(Pool.pool, size, items.offset(page, size))

    async def on_post(self, req, resp) -> None:
        item = await asyncpg_items.create(Pool.pool, *await item_fields(req))
        resp.status = falcon.HTTP_201
        # Falcon has no reverse routing: the new item's URL is under the collection's own path.
        resp.location = f"{req.path}/{item['id']}"
        resp.media = item


class Item:
    async def on_get(self, req, resp, item_id: int) -> None:
        item = await asyncpg_items.get(Pool.pool, item_id)
        if item is None:
            raise falcon.HTTPNotFound()
        resp.media = item

    async def on_put(self, req, resp, item_id: int) -> None:
        fields = await item_fields(req)
        item = await asyncpg_items.update(Pool.pool, item_id, *fields)
        if item is None:
            raise falcon.HTTPNotFound()
        resp.media = item

    async def on_delete(self, req, resp, item_id: int) -> None:
        if not await asyncpg_items.delete(Pool.pool, item_id):
            raise falcon.HTTPNotFound()
        resp.status = falcon.HTTP_204


class Echo:
    async def on_websocket(self, req, ws: falcon.asgi.WebSocket) -> None:
        await ws.accept()
        while True:
            try:
                message = await ws.receive_text()
            except falcon.WebSocketDisconnected:
                return
            await ws.send_text(message)


app = falcon.asgi.App(middleware=[Pool()])
app.add_route("/plaintext", Plaintext())
app.add_route("/async", Async())
app.add_route("/json", Json())
app.add_route("/db", Db())
app.add_route("/session", Session())
app.add_route("/hash", Hash())
app.add_route("/queries", Queries())
app.add_route("/updates", Updates())
app.add_route("/fortunes", Fortunes())
app.add_route("/cached-queries", CachedQueries())
app.add_route("/upload", Upload())
app.add_route("/items", Items())
app.add_route("/items/{item_id:int}", Item())
app.add_route("/ws", Echo())
app.add_static_route("/static", env.value("STATIC_DIR"))
