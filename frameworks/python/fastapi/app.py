"""webshootout workloads on FastAPI (see docs/workloads.md)."""

import contextlib
import hashlib
import json
import os
import random
import secrets
from typing import Annotated

import asyncpg
from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles

HASH_FILE = os.environ["HASH_FILE"]
SESSION_COOKIE = "uid"
# Each worker is an event loop with many requests in flight, so it gets a pool of its own;
# the workers share a budget that stays well under PostgreSQL's default max_connections (100).
POOL_SIZE = max(4, 32 // int(os.environ["WORKERS"]))


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI):
    # Opened in the lifespan, i.e. inside each worker's own event loop.
    async with asyncpg.create_pool(
        os.environ["DATABASE_URL"], min_size=POOL_SIZE, max_size=POOL_SIZE
    ) as pool:
        app.state.pool = pool
        yield


# No interactive docs: a production API does not serve /docs and /openapi.json to everyone.
app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
app.mount("/static", StaticFiles(directory=os.environ["STATIC_DIR"]), name="static")


@app.exception_handler(RequestValidationError)
async def bad_request(request: Request, exc: RequestValidationError) -> PlainTextResponse:
    # The contract wants 400 with a one-line reason, where FastAPI's default is 422 with JSON.
    reasons = "; ".join(
        f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in exc.errors()
    )
    return PlainTextResponse(reasons, status_code=400)


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


@app.get("/plaintext", response_class=PlainTextResponse)
async def plaintext() -> str:
    return "Hello, World!"


@app.get("/json")
async def json_() -> dict[str, str]:
    return {"message": "Hello, World!"}


@app.get("/db")
async def db(request: Request) -> dict[str, int]:
    row = await request.app.state.pool.fetchrow(
        "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
    )
    return {"id": row["id"], "randomNumber": row["randomnumber"]}


@app.get("/session")
async def session(request: Request) -> PlainTextResponse:
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


# A plain `def`: FastAPI runs it in its thread pool, so the file read and the hash chain
# do not stall the event loop's other connections.
@app.get("/hash", response_class=PlainTextResponse)
def hash_(n: Annotated[int, Query(ge=1, le=100000)]) -> str:
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()


@app.websocket("/ws")
async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.send_text(await websocket.receive_text())
