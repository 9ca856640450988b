"""webshootout workloads on Falcon, WSGI under gunicorn (see docs/workloads.md)."""

import os
import random

import falcon
import jinja2
from shootout_common import env, hashing, psycopg_queries, psycopg_sessions
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


app = falcon.App()

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
# Falcon's own static route serves STATIC_DIR at /static.
app.add_static_route("/static", env.value("STATIC_DIR"))
