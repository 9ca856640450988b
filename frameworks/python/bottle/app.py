"""webshootout workloads on Bottle (see docs/workloads.md)."""

import random
import time

from bottle import Bottle, json_dumps, request, response, static_file, template
from shootout_common import env, hashing, psycopg_queries, psycopg_sessions
from shootout_common import techempower as te

app = Bottle()

HASH_FILE = env.value("HASH_FILE")
STATIC_DIR = env.value("STATIC_DIR")
SECRET_KEY = env.value("SECRET_KEY")

# Created at import, so in each gunicorn worker after the fork (no --preload); a sync worker uses one
# connection at a time.
pool = psycopg_sessions.create_pool()

# Filled once per worker, at import (after the fork), for cached.
world_cache = te.WorldCache()
psycopg_queries.fill_cache(world_cache, pool)


def text(body: str, status: int = 200) -> str:
    response.status = status
    response.content_type = "text/plain; charset=utf-8"
    return body


def json_list(rows: list) -> str:
    # Bottle's JSON plugin turns a returned dict into JSON, not a list: the same json_dumps by hand.
    response.content_type = "application/json"
    return json_dumps(rows)


@app.get("/plaintext")
def plaintext():
    return text("Hello, World!")


@app.get("/async")
def async_():
    # The async workload. Bottle has no event loop: the wait holds the request's thread (gunicorn gthread).
    time.sleep(0.015)
    return text("Hello, World!")


@app.get("/json")
def json_():
    return {"message": "Hello, World!"}


@app.get("/db")
def db():
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
        ).fetchone()
    return {"id": row[0], "randomNumber": row[1]}


@app.get("/session")
def session():
    # Bottle has no session store; its signed cookies (HMAC with SECRET_KEY) carry the visitor's id, and
    # the counter lives in usersessions. A missing or forged cookie reads as None: a new visitor.
    uid = request.get_cookie(psycopg_sessions.COOKIE, secret=SECRET_KEY)
    visit = psycopg_sessions.visit(pool, uid)
    if visit.is_new:
        response.set_cookie(psycopg_sessions.COOKIE, visit.uid, secret=SECRET_KEY, path="/",
                            httponly=True, samesite="lax")
    return text(f"Count is {visit.count}")


@app.get("/hash")
def hash_():
    try:
        n = hashing.parse_n(request.query.get("n"))
    except ValueError as reason:
        return text(str(reason), 400)
    return text(hashing.iterated_sha256(HASH_FILE, n))


@app.get("/queries")
def queries():
    return json_list(psycopg_queries.random_worlds(pool, te.count(request.query.get("queries"))))


@app.get("/updates")
def updates():
    return json_list(psycopg_queries.updated_worlds(pool, te.count(request.query.get("queries"))))


@app.get("/fortunes")
def fortunes():
    # SimpleTemplate, Bottle's own engine: {{...}} is HTML-escaped. views/fortunes.tpl.
    response.content_type = "text/html; charset=utf-8"
    return template("fortunes", fortunes=psycopg_queries.fortunes(pool))


@app.get("/cached-queries")
def cached_queries():
    return json_list(world_cache.pick(te.count(request.query.get("count"))))


@app.get("/static/<filename:path>")
def static(filename):
    # static_file refuses paths outside root and hands the open file to gunicorn's sendfile.
    return static_file(filename, root=STATIC_DIR)
