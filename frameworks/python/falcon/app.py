"""webshootout workloads on Falcon, WSGI under gunicorn (see docs/workloads.md)."""

import os
import random

import falcon
import jinja2
from falcon_compression.middleware import CompressionMiddleware
from shootout_common import env, hashing, items, jsoncomp, psycopg_items, psycopg_queries, psycopg_sessions, upload
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")

# Created at import, so in each gunicorn worker after the fork (no --preload). A sync worker uses one
# connection at a time.
pool = psycopg_sessions.create_pool()

# Filled once per worker, at import (after the fork), for cached.
world_cache = te.WorldCache()
psycopg_queries.fill_cache(world_cache, pool)

# Falcon has no template engine of its own; its docs pair it with Jinja2. Autoescaping for .html.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"), autoescape=jinja2.select_autoescape())


def text(resp: falcon.Response, body: str, status: str = falcon.HTTP_200) -> None:
    resp.status = status
    resp.content_type = falcon.MEDIA_TEXT  # "text/plain; charset=utf-8"
    resp.text = body


class Plaintext:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        text(resp, "Hello, World!")


class Json:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        # Falcon's media handler serializes it (application/json is Falcon's default media type).
        resp.media = {"message": "Hello, World!"}


class Db:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        with pool.connection() as conn:
            row = conn.execute(
                "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
            ).fetchone()
        resp.media = {"id": row[0], "randomNumber": row[1]}


class Session:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        uid = req.get_cookie_values(psycopg_sessions.COOKIE)
        visit = psycopg_sessions.visit(pool, uid[0] if uid else None)
        text(resp, f"Count is {visit.count}")
        if visit.is_new:
            # Plain HTTP here: Falcon marks cookies Secure by default, which a client would not send back.
            resp.set_cookie(psycopg_sessions.COOKIE, visit.uid, secure=False, http_only=True, same_site="Lax")


class Hash:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        try:
            n = hashing.parse_n(req.get_param("n"))
        except ValueError as reason:
            text(resp, str(reason), falcon.HTTP_400)
            return
        text(resp, hashing.iterated_sha256(HASH_FILE, n))


class Queries:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.media = psycopg_queries.random_worlds(pool, te.count(req.get_param("queries")))


class Updates:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.media = psycopg_queries.updated_worlds(pool, te.count(req.get_param("queries")))


class Fortunes:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.content_type = falcon.MEDIA_HTML  # "text/html; charset=utf-8"
        resp.text = templates.get_template("fortunes.html").render(fortunes=psycopg_queries.fortunes(pool))


class CachedQueries:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.media = world_cache.pick(te.count(req.get_param("count")))


class JsonComp:
    def on_get(self, req: falcon.Request, resp: falcon.Response) -> None:
        resp.media = jsoncomp.items(jsoncomp.count(req.get_param("n")))


# crud: Falcon resources (a responder per method) on the router's int converter, req.get_media() (Falcon's own 400
# for a body that is not JSON), plain checks from shootout_common.items (Falcon has no schema validation without
# an extra package), get_param_as_int's bounds for page and size (its own 400), psycopg_items as db uses.
def item_fields(req) -> tuple[str, int]:
    try:
        return items.fields(req.get_media())
    except ValueError as reason:
        raise falcon.HTTPUnprocessableEntity(description=str(reason)) from None


class Items:
    def on_get(self, req, resp) -> None:
        page = req.get_param_as_int("page", min_value=1, max_value=items.INT_MAX, default=items.PAGE)
        size = req.get_param_as_int("size", min_value=1, max_value=items.MAX_SIZE, default=items.SIZE)
        resp.media = psycopg_items.page(pool, size, items.offset(page, size))

    def on_post(self, req, resp) -> None:
        item = psycopg_items.create(pool, *item_fields(req))
        resp.status = falcon.HTTP_201
        # Falcon has no reverse routing: the new item's URL is under the collection's own path.
        resp.location = f"{req.path}/{item['id']}"
        resp.media = item


class Item:
    def on_get(self, req, resp, item_id: int) -> None:
        item = psycopg_items.get(pool, item_id)
        if item is None:
            raise falcon.HTTPNotFound()
        resp.media = item

    def on_put(self, req, resp, item_id: int) -> None:
        fields = item_fields(req)
        item = psycopg_items.update(pool, item_id, *fields)
        if item is None:
            raise falcon.HTTPNotFound()
        resp.media = item

    def on_delete(self, req, resp, item_id: int) -> None:
        if not psycopg_items.delete(pool, item_id):
            raise falcon.HTTPNotFound()
        resp.status = falcon.HTTP_204


def too_large() -> falcon.HTTPContentTooLarge:
    return falcon.HTTPContentTooLarge(description=f"the body is over {upload.MAX_BODY} bytes")


class Upload:
    def on_post(self, req: falcon.Request, resp: falcon.Response) -> None:
        # Falcon sets no body limit of its own (its docs leave it to the server or proxy; gunicorn has none): the
        # handler refuses a declared length over it at once, and a chunked body once it grows past it.
        if (req.content_length or 0) > upload.MAX_BODY:
            raise too_large()
        # bounded_stream reads Content-Length bytes, none of a chunked body. A server that sets
        # wsgi.input_terminated (gunicorn) ends wsgi.input at the body's end whatever its framing, so req.stream is
        # read to its end there, as Falcon's Request.stream docs allow.
        stream = req.stream if req.env.get("wsgi.input_terminated") else req.bounded_stream
        digest = upload.BodyDigest()
        while piece := stream.read(65536):
            digest.update(piece)
            if digest.size > upload.MAX_BODY:
                raise too_large()
        text(resp, digest.answer())


# falcon-compression: the compression middleware Falcon's maintainers point to (Falcon has none of its own), at its
# defaults: gzip level 6 or brotli quality 4 by the client's Accept-Encoding, for answers of 200 bytes and more,
# Vary: Accept-Encoding added. App-wide, as middleware is.
app = falcon.App(middleware=[CompressionMiddleware()])

# falcon-tuned (FALCON_JSON=orjson, set by that variant's start): the JSON media handler on orjson, as
# Falcon's JSONHandler docs name it ("you can often realize a significant performance boost under CPython
# by using an alternative library. Good options in this respect include msgspec, orjson, python-rapidjson,
# and mujson", https://falcon.readthedocs.io/en/stable/api/media.html). Unset: the stdlib json default.
_json_library = os.environ.get("FALCON_JSON", "")
if _json_library == "orjson":
    import orjson
    from falcon import media

    # Requests and responses alike, as the docs' example sets it; orjson's bytes go out without re-encoding.
    _json = media.JSONHandler(dumps=orjson.dumps, loads=orjson.loads)
    app.req_options.media_handlers[falcon.MEDIA_JSON] = _json
    app.resp_options.media_handlers[falcon.MEDIA_JSON] = _json
elif _json_library:
    raise RuntimeError(f"FALCON_JSON is {_json_library!r}: expected 'orjson' or unset")

app.add_route("/plaintext", Plaintext())
app.add_route("/json", Json())
app.add_route("/db", Db())
app.add_route("/session", Session())
app.add_route("/hash", Hash())
app.add_route("/queries", Queries())
app.add_route("/updates", Updates())
app.add_route("/fortunes", Fortunes())
app.add_route("/cached-queries", CachedQueries())
app.add_route("/json-comp", JsonComp())
app.add_route("/upload", Upload())
app.add_route("/items", Items())
app.add_route("/items/{item_id:int}", Item())
# Falcon's own static route serves STATIC_DIR at /static.
app.add_static_route("/static", env.value("STATIC_DIR"))
