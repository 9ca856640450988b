"""webshootout workloads on Starlette (see docs/workloads.md)."""

import contextlib
import hashlib
import json
import os
import random
import re
import secrets

import asyncpg
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles

HASH_FILE = os.environ["HASH_FILE"]
SESSION_COOKIE = "uid"
INTEGER = re.compile(r"-?[0-9]+")
# Each worker is an event loop with many requests in flight, so it gets a pool of its own;
# the workers share a budget that stays well under PostgreSQL's default max_connections (100).
POOL_SIZE = max(4, 32 // int(os.environ["WORKERS"]))


@contextlib.asynccontextmanager
async def lifespan(app):
    # Opened in the lifespan, i.e. inside each worker's own event loop after the fork.
    async with asyncpg.create_pool(
        os.environ["DATABASE_URL"], min_size=POOL_SIZE, max_size=POOL_SIZE
    ) as pool:
        app.state.pool = pool
        yield


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


async def plaintext(request):
    return PlainTextResponse("Hello, World!")


async def json_(request):
    return JSONResponse({"message": "Hello, World!"})


async def db(request):
    row = await request.app.state.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return JSONResponse({"id": row["id"], "randomNumber": row["randomnumber"]})


async def session(request):
    uid = request.cookies.get(SESSION_COOKIE)
    async with request.app.state.pool.acquire() as conn, conn.transaction():
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
    response = PlainTextResponse(f"Count is {count}")
    if is_new:
        response.set_cookie(SESSION_COOKIE, uid, httponly=True, samesite="lax")
    return response


# A plain `def`: Starlette runs it in its thread pool, so the file read and the hash chain
# do not stall the event loop's other connections.
def hash_(request):
    raw = request.query_params.get("n")
    if raw is None:
        return PlainTextResponse("missing query parameter n", 400)
    if not INTEGER.fullmatch(raw):
        return PlainTextResponse("n must be an integer", 400)
    n = int(raw)
    if not 1 <= n <= 100000:
        return PlainTextResponse("n must be between 1 and 100000", 400)
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return PlainTextResponse(digest.hex())


async def echo(websocket):
    await websocket.accept()
    async for message in websocket.iter_text():
        await websocket.send_text(message)


app = Starlette(
    routes=[
        Route("/plaintext", plaintext),
        Route("/json", json_),
        Route("/db", db),
        Route("/session", session),
        Route("/hash", hash_),
        WebSocketRoute("/ws", echo),
        Mount("/static", StaticFiles(directory=os.environ["STATIC_DIR"])),
    ],
    lifespan=lifespan,
)
