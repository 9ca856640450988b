"""webshootout workloads on Falcon, WSGI under gunicorn (see docs/workloads.md)."""

import random

import falcon
from shootout_common import env, hashing, psycopg_sessions

HASH_FILE = env.value("HASH_FILE")

# Created at import, so in each gunicorn worker after the fork (no --preload). A sync worker uses one
# connection at a time.
pool = psycopg_sessions.create_pool()


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


app = falcon.App()
app.add_route("/plaintext", Plaintext())
app.add_route("/json", Json())
app.add_route("/db", Db())
app.add_route("/session", Session())
app.add_route("/hash", Hash())
# Falcon's own static route serves STATIC_DIR at /static.
app.add_static_route("/static", env.value("STATIC_DIR"))
