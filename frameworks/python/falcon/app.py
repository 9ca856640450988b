"""webshootout workloads on Falcon, WSGI under gunicorn (see docs/workloads.md)."""

import json
import random
import secrets

import falcon
from psycopg_pool import ConnectionPool
from shootout_common import env, hashing

HASH_FILE = env.value("HASH_FILE")
SESSION_COOKIE = "uid"

# Created at import, so in each gunicorn worker after the fork (no --preload). A sync worker uses one
# connection at a time. Autocommit keeps the db request at one round trip; session opens a transaction.
pool = ConnectionPool(
    env.value("DATABASE_URL"),
    min_size=env.db_pool(),
    max_size=env.db_pool(),
    kwargs={"autocommit": True},
    open=True,
)


def text(resp: falcon.Response, body: str, status: str = falcon.HTTP_200) -> None:
    resp.status = status
    resp.content_type = falcon.MEDIA_TEXT  # "text/plain; charset=utf-8"
    resp.text = body


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


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
        uid = req.get_cookie_values(SESSION_COOKIE)
        uid = uid[0] if uid else None
        with pool.connection() as conn, conn.transaction():
            row = None
            if uid is not None:
                row = conn.execute(
                    "SELECT data FROM usersessions WHERE uid = %s FOR UPDATE", (uid,)
                ).fetchone()
            if row is None:
                uid, count, is_new = secrets.token_urlsafe(16), 1, True
                conn.execute(
                    "INSERT INTO usersessions (uid, data) VALUES (%s, %s)",
                    (uid, session_data(count)),
                )
            else:
                count, is_new = json.loads(row[0])["count"] + 1, False
                conn.execute(
                    "UPDATE usersessions SET data = %s WHERE uid = %s",
                    (session_data(count), uid),
                )
        text(resp, f"Count is {count}")
        if is_new:
            # Plain HTTP here: Falcon marks cookies Secure by default, which a client would not send back.
            resp.set_cookie(SESSION_COOKIE, uid, secure=False, http_only=True, same_site="Lax")


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
