"""webshootout workloads on Emmett (see docs/workloads.md).

Emmett's own ORM (pyDAL underneath, on psycopg2) for the database workloads, its session manager for
the visitor's cookie, Renoir (its template engine) for fortunes, and its RSGI handlers under Granian,
which `emmett serve` starts.
"""

import asyncio
import json
import os
import random

from emmett import App, request, response, session, websocket
from emmett.orm import Database, Field, Model
from emmett.sessions import SessionManager
from emmett.tools import service
from shootout_common import env, hashing
from shootout_common import techempower as te

# root_path is the run's own directory: Emmett creates languages/, logs/ and static/ under it at start
# (and pyDAL its databases/ folder), and the framework's folder is read-only to the server. The
# templates stay here.
app = App(__name__, root_path=env.value("RUN_DIR"),
          template_folder=os.path.join(os.path.dirname(os.path.abspath(__file__)), "templates"))
# Emmett serves /static/ from app.static_path itself (handle_static, its default), through Granian's
# RSGI file response: pointed at the harness's folder instead of ./static.
app.static_path = os.path.realpath(env.value("STATIC_DIR"))

# pyDAL's postgres adapter takes postgres://; one pool of DB_POOL connections per Granian worker.
app.config.db.uri = env.value("DATABASE_URL").replace("postgresql://", "postgres://", 1)
app.config.db.pool_size = env.db_pool()
# The tables exist (the harness owns them): no migrations, and so no migration files to write.
app.config.db.auto_migrate = False

HASH_FILE = env.value("HASH_FILE")


class World(Model):
    tablename = "world"
    randomnumber = Field.int()


class Fortune(Model):
    tablename = "fortune"
    message = Field.string()


class UserSession(Model):
    tablename = "usersessions"
    primary_keys = ["uid"]
    uid = Field.string()
    data = Field.text()


db = Database(app)
db.define_models(World, Fortune, UserSession)

# The database pipe on the routes that read the database: a pooled connection for the request and one
# transaction, committed when the route succeeds (rolled back on an error). Not app-wide: the pipe
# would also hold a pooled connection for each open WebSocket's whole life.
with_db = [db.pipe]

world_cache = te.WorldCache()


def text(body: str, status: int = 200) -> str:
    response.status = status
    response.content_type = "text/plain; charset=utf-8"
    return body


def world(row) -> dict[str, int]:
    return {"id": row.id, "randomNumber": row.randomnumber}


@app.route("/plaintext")
async def plaintext():
    return text("Hello, World!")


@app.route("/async")
async def async_():
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return text("Hello, World!")


@app.route("/json")
@service.json
async def json_():
    return {"message": "Hello, World!"}


@app.route("/db", pipeline=with_db)
@service.json
async def db_():
    return world(World.get(random.randint(1, 10000)))


# The session manager's encrypted cookie (keyed by SECRET_KEY) carries the visitor's id; the counter
# lives in usersessions, its row locked for the request's transaction.
@app.route("/session", pipeline=[*with_db, SessionManager.cookies(env.value("SECRET_KEY"))])
async def session_():
    row = None
    if session.uid:
        row = UserSession.where(lambda s: s.uid == session.uid).select(for_update=True).first()
    if row is None:
        session.uid = os.urandom(16).hex()
        count = 1
        UserSession.table.insert(uid=session.uid, data=json.dumps({"count": count}, separators=(",", ":")))
    else:
        count = json.loads(row.data)["count"] + 1
        UserSession.where(lambda s: s.uid == session.uid).update(
            data=json.dumps({"count": count}, separators=(",", ":")))
    return text(f"Count is {count}")


@app.route("/hash")
async def hash_():
    try:
        n = hashing.parse_n(request.query_params.n)
    except ValueError as reason:
        return text(str(reason), 400)
    # The file read and the hash chain run in the loop's default thread pool, not in the loop.
    return text(await asyncio.get_running_loop().run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n))


@app.route("/queries", pipeline=with_db)
@service.json
async def queries():
    return [world(World.get(id_)) for id_ in te.random_ids(te.count(request.query_params.queries))]


@app.route("/updates", pipeline=with_db)
@service.json
async def updates():
    worlds = [world(World.get(id_)) for id_ in te.random_ids(te.count(request.query_params.queries))]
    for w in worlds:
        w["randomNumber"] = te.random_id()
    # One UPDATE per row, in id order: the request's transaction locks its rows in the order every
    # other request does, so concurrent updates cannot deadlock.
    for id_, number in te.updates_in_lock_order(worlds):
        World.where(lambda w: w.id == id_).update(randomnumber=number)
    return worlds


@app.route("/fortunes", pipeline=with_db)
async def fortunes():
    # Rendered from templates/fortunes.html by Renoir, whose {{=...}} escapes HTML.
    return {"fortunes": te.fortunes_sorted(Fortune.all().select())}


@app.route("/cached-queries", pipeline=with_db)
@service.json
async def cached_queries():
    if not world_cache.filled:
        world_cache.fill((row.id, row.randomnumber) for row in World.all().select())
    return world_cache.pick(te.count(request.query_params.count))


@app.websocket("/ws")
async def echo():
    while True:
        await websocket.send(await websocket.receive())
