"""webshootout workloads on FastAPI (see docs/workloads.md)."""

import contextlib
import random
from typing import Annotated

from fastapi import FastAPI, Query, Request, WebSocket, WebSocketDisconnect
from fastapi.exceptions import RequestValidationError
from fastapi.responses import PlainTextResponse
from fastapi.staticfiles import StaticFiles
from shootout_common import env, hashing, sessions

HASH_FILE = env.value("HASH_FILE")


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI):
    # Opened in the lifespan, i.e. inside each worker's own event loop.
    async with sessions.create_pool() as pool:
        app.state.pool = pool
        yield


# No interactive docs: a production API does not serve /docs and /openapi.json to everyone.
app = FastAPI(lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None)
app.mount("/static", StaticFiles(directory=env.value("STATIC_DIR")), name="static")


@app.exception_handler(RequestValidationError)
async def bad_request(request: Request, exc: RequestValidationError) -> PlainTextResponse:
    # The contract wants 400 with a one-line reason, where FastAPI's default is 422 with JSON.
    reasons = "; ".join(
        f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in exc.errors()
    )
    return PlainTextResponse(reasons, status_code=400)


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
    visit = await sessions.visit(request.app.state.pool, request.cookies.get(sessions.COOKIE))
    response = PlainTextResponse(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="lax")
    return response


# A plain `def`: FastAPI runs it in its thread pool, so the file read and the hash chain
# do not stall the event loop's other connections.
@app.get("/hash", response_class=PlainTextResponse)
def hash_(n: Annotated[int, Query(ge=1, le=hashing.MAX_N)]) -> str:
    return hashing.iterated_sha256(HASH_FILE, n)


@app.websocket("/ws")
async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.send_text(await websocket.receive_text())
