"""webshootout workloads on Sanic (see docs/workloads.md)."""

import asyncio
import hashlib
import json
import os
import random
import re
import secrets

import asyncpg
from sanic import Sanic
from sanic.response import HTTPResponse
from sanic.response import json as json_response
from sanic.response import text

HASH_FILE = os.environ["HASH_FILE"]
SESSION_COOKIE = "uid"
INTEGER = re.compile(r"-?[0-9]+")
# Each worker is an event loop with many requests in flight, so it gets a pool of its own;
# the workers share a budget that stays well under PostgreSQL's default max_connections (100).
POOL_SIZE = max(4, 32 // int(os.environ["WORKERS"]))

app = Sanic("webshootout")
app.static("/static", os.environ["STATIC_DIR"], name="static")


@app.before_server_start
async def open_pool(app: Sanic) -> None:
    # Runs in every worker process, inside that worker's own event loop.
    app.ctx.pool = await asyncpg.create_pool(
        os.environ["DATABASE_URL"], min_size=POOL_SIZE, max_size=POOL_SIZE
    )


@app.after_server_stop
async def close_pool(app: Sanic) -> None:
    await app.ctx.pool.close()


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


@app.get("/plaintext")
async def plaintext(request) -> HTTPResponse:
    return text("Hello, World!")


@app.get("/json")
async def json_(request) -> HTTPResponse:
    return json_response({"message": "Hello, World!"})


@app.get("/db")
async def db(request) -> HTTPResponse:
    row = await request.app.ctx.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return json_response({"id": row["id"], "randomNumber": row["randomnumber"]})


@app.get("/session")
async def session(request) -> HTTPResponse:
    uid = request.cookies.get(SESSION_COOKIE)
    async with request.app.ctx.pool.acquire() as conn, conn.transaction():
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
        # Sanic marks cookies Secure by default; this server speaks plain HTTP.
        response.add_cookie(SESSION_COOKIE, uid, httponly=True, samesite="Lax", secure=False)
    return response


def iterated_sha256(n: int) -> str:
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()


@app.get("/hash")
async def hash_(request) -> HTTPResponse:
    raw = request.args.get("n")
    if raw is None:
        return text("missing query parameter n", status=400)
    if not INTEGER.fullmatch(raw):
        return text("n must be an integer", status=400)
    n = int(raw)
    if not 1 <= n <= 100000:
        return text("n must be between 1 and 100000", status=400)
    # In a worker thread, so the file read and the hash chain do not stall the event loop.
    return text(await asyncio.to_thread(iterated_sha256, n))


@app.websocket("/ws")
async def echo(request, ws) -> None:
    async for message in ws:
        await ws.send(message)
