"""webshootout workloads on Flask (see docs/workloads.md)."""

import json
import random
import secrets

from flask import Flask, Response, jsonify, request
from psycopg_pool import ConnectionPool
from shootout_common import env, hashing

# Flask's own static route (send_from_directory underneath) serves STATIC_DIR at /static.
app = Flask(__name__, static_folder=env.value("STATIC_DIR"), static_url_path="/static")

HASH_FILE = env.value("HASH_FILE")
SESSION_COOKIE = "uid"

# Created at import, so in each gunicorn worker after the fork (no --preload). A sync worker uses one
# connection at a time, the gthread worker and the threaded dev server one per busy thread.
# Autocommit keeps the single-query db request at one round trip; session opens its own transaction.
pool = ConnectionPool(
    env.value("DATABASE_URL"),
    min_size=env.db_pool(),
    max_size=env.db_pool(),
    kwargs={"autocommit": True},
    open=True,
)


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


def text(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/plain")


@app.get("/plaintext")
def plaintext():
    return text("Hello, World!")


@app.get("/json")
def json_():
    return jsonify(message="Hello, World!")


@app.get("/db")
def db():
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
        ).fetchone()
    return jsonify(id=row[0], randomNumber=row[1])


@app.get("/session")
def session():
    uid = request.cookies.get(SESSION_COOKIE)
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
    response = text(f"Count is {count}")
    if is_new:
        response.set_cookie(SESSION_COOKIE, uid, httponly=True, samesite="Lax")
    return response


@app.get("/hash")
def hash_():
    try:
        n = hashing.parse_n(request.args.get("n"))
    except ValueError as reason:
        return text(str(reason), 400)
    return text(hashing.iterated_sha256(HASH_FILE, n))
