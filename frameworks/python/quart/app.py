"""webshootout workloads on Quart (see docs/workloads.md)."""

import hashlib
import json
import os
import random
import re
import secrets

import asyncpg
from quart import Quart, Response, request, websocket

HASH_FILE = os.environ["HASH_FILE"]
SESSION_COOKIE = "uid"
INTEGER = re.compile(r"-?[0-9]+")
# Each worker is an event loop with many requests in flight, so it gets a pool of its own;
# the workers share a budget that stays well under PostgreSQL's default max_connections (100).
POOL_SIZE = max(4, 32 // int(os.environ["WORKERS"]))

# Quart's own static route serves STATIC_DIR at /static.
app = Quart(__name__, static_folder=os.environ["STATIC_DIR"], static_url_path="/static")


@app.before_serving
async def open_pool() -> None:
    # Runs in every worker process, inside that worker's own event loop.
    app.pool = await asyncpg.create_pool(
        os.environ["DATABASE_URL"], min_size=POOL_SIZE, max_size=POOL_SIZE
    )


@app.after_serving
async def close_pool() -> None:
    await app.pool.close()


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


def text(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/plain")


@app.get("/plaintext")
async def plaintext() -> Response:
    return text("Hello, World!")


@app.get("/json")
async def json_() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.get("/db")
async def db() -> dict[str, int]:
    row = await app.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return {"id": row["id"], "randomNumber": row["randomnumber"]}


@app.get("/session")
async def session() -> Response:
    uid = request.cookies.get(SESSION_COOKIE)
    async with app.pool.acquire() as conn, conn.transaction():
        data = None
        if uid is not None:
            data = await conn.fetchval(
                "SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE", uid
            )
        if data is None:
            uid, count, is_new = secrets.token_urlsafe(16), 1, True
            await conn.execute(
                "INSERT INTO usersessions (uid, data) VALUES ($1, $2)", uid, session_data(count)
            )
        else:
            count, is_new = json.loads(data)["count"] + 1, False
            await conn.execute(
                "UPDATE usersessions SET data = $1 WHERE uid = $2", session_data(count), uid
            )
    response = text(f"Count is {count}")
    if is_new:
        response.set_cookie(SESSION_COOKIE, uid, httponly=True, samesite="Lax")
    return response


# A plain `def`: Quart runs it in a thread executor, so the file read and the hash chain
# do not stall the event loop's other connections.
@app.get("/hash")
def hash_() -> Response:
    raw = request.args.get("n")
    if raw is None:
        return text("missing query parameter n", 400)
    if not INTEGER.fullmatch(raw):
        return text("n must be an integer", 400)
    n = int(raw)
    if not 1 <= n <= 100000:
        return text("n must be between 1 and 100000", 400)
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return text(digest.hex())


@app.websocket("/ws")
async def echo() -> None:
    while True:
        await websocket.send(await websocket.receive())
