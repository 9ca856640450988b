"""webshootout workloads on FastAPI (see docs/workloads.md)."""

import asyncio
import contextlib
import random
from typing import Annotated

from fastapi import FastAPI, HTTPException, Query, Request, Response, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import request_validation_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.gzip import GZipMiddleware
from fastapi.responses import HTMLResponse, PlainTextResponse
from fastapi.staticfiles import StaticFiles
from fastapi.templating import Jinja2Templates
from pydantic import BaseModel, ConfigDict, Field
from shootout_common import asyncpg_items, asyncpg_queries, env, hashing, items, jsoncomp, sessions, upload
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")
# Starlette's Jinja2 integration, as FastAPI's docs use it; its environment autoescapes .html templates.
templates = Jinja2Templates(directory="templates")


@contextlib.asynccontextmanager
async def lifespan(app: FastAPI):
    # Opened in the lifespan, i.e. inside each worker's own event loop.
    async with sessions.create_pool() as pool:
        app.state.pool = pool
        app.state.world_cache = te.WorldCache()
        await asyncpg_queries.fill_cache(app.state.world_cache, pool)
        yield


# No interactive docs: a production API does not serve /docs and /openapi.json to everyone. max_body_size:
# FastAPI's request body limit (Request Body Limits in its advanced docs), a 413 past it, chunked bodies counted
# as they arrive; without it the body is unlimited.
app = FastAPI(
    lifespan=lifespan, docs_url=None, redoc_url=None, openapi_url=None, max_body_size=upload.MAX_BODY
)
# FastAPI's compression (Advanced Middleware: GZipMiddleware, Starlette's), at its defaults: gzip level 9 for
# answers of 500 bytes and more whose client accepts gzip, Vary: Accept-Encoding added.
app.add_middleware(GZipMiddleware)
app.mount("/static", StaticFiles(directory=env.value("STATIC_DIR")), name="static")


@app.exception_handler(RequestValidationError)
async def bad_request(request: Request, exc: RequestValidationError) -> Response:
    # A request body of the wrong shape keeps FastAPI's own 422 (crud). Everything else the contract wants as
    # 400 with a one-line reason: query parameters (hash, crud's page) and a body that is not JSON at all.
    errors = exc.errors()
    if all(error["loc"][0] == "body" and error["type"] != "json_invalid" for error in errors):
        return await request_validation_exception_handler(request, exc)
    reasons = "; ".join(
        f"{'.'.join(str(part) for part in error['loc'])}: {error['msg']}" for error in errors
    )
    return PlainTextResponse(reasons, status_code=400)


@app.get("/plaintext", response_class=PlainTextResponse)
async def plaintext() -> str:
    return "Hello, World!"


@app.get("/async", response_class=PlainTextResponse)
async def async_() -> str:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
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


# The count is a string: out-of-range and non-integer values mean 1 or 500 here, not a 400.
Count = Annotated[str | None, Query()]


@app.get("/queries")
async def queries(request: Request, queries: Count = None) -> list[dict[str, int]]:
    return await asyncpg_queries.random_worlds(request.app.state.pool, te.count(queries))


@app.get("/updates")
async def updates(request: Request, queries: Count = None) -> list[dict[str, int]]:
    return await asyncpg_queries.updated_worlds(request.app.state.pool, te.count(queries))


@app.get("/fortunes", response_class=HTMLResponse)
async def fortunes(request: Request):
    fortunes = await asyncpg_queries.fortunes(request.app.state.pool)
    return templates.TemplateResponse(request, "fortunes.html", {"fortunes": fortunes})


@app.get("/cached-queries")
async def cached_queries(request: Request, count: Count = None) -> list[dict[str, int]]:
    return request.app.state.world_cache.pick(te.count(count))


@app.get("/json-comp")
async def json_comp(n: Count = None) -> list[dict[str, int | str]]:
    return jsoncomp.items(jsoncomp.count(n))


@app.post("/upload", response_class=PlainTextResponse)
async def upload_body(request: Request) -> str:
    # The raw body as Starlette's request.stream() hands it over (FastAPI's docs: Using the Request Directly),
    # hashed piece by piece; max_body_size stops it past the limit.
    digest = upload.BodyDigest()
    async for piece in request.stream():
        digest.update(piece)
    return digest.answer()


class ItemFields(BaseModel):
    # Strict: "3" and 3.0 are not a quantity, nor 5 a name, as the contract has it (Pydantic's lax mode would
    # convert them). Other members are ignored, Pydantic's default.
    model_config = ConfigDict(strict=True)

    name: str
    quantity: int = Field(ge=items.INT_MIN, le=items.INT_MAX)


class Item(ItemFields):
    id: int


# crud: FastAPI's per-method routes, the Pydantic models above for the body and the answers, asyncpg as db uses.
@app.get("/items/{item_id}")
async def get_item(request: Request, item_id: int) -> Item:
    item = await asyncpg_items.get(request.app.state.pool, item_id)
    if item is None:
        raise HTTPException(404)
    return item


@app.get("/items")
async def list_items(
    request: Request,
    page: Annotated[int, Query(ge=1, le=items.INT_MAX)] = items.PAGE,
    size: Annotated[int, Query(ge=1, le=items.MAX_SIZE)] = items.SIZE,
) -> list[Item]:
    return await asyncpg_items.page(request.app.state.pool, size, items.offset(page, size))


@app.post("/items", status_code=201)
async def create_item(request: Request, response: Response, fields: ItemFields) -> Item:
    item = await asyncpg_items.create(request.app.state.pool, fields.name, fields.quantity)
    response.headers["Location"] = str(request.url_for("get_item", item_id=item["id"]))
    return item


@app.put("/items/{item_id}")
async def update_item(request: Request, item_id: int, fields: ItemFields) -> Item:
    item = await asyncpg_items.update(request.app.state.pool, item_id, fields.name, fields.quantity)
    if item is None:
        raise HTTPException(404)
    return item


@app.delete("/items/{item_id}", status_code=204)
async def delete_item(request: Request, item_id: int) -> Response:
    if not await asyncpg_items.delete(request.app.state.pool, item_id):
        raise HTTPException(404)
    return Response(status_code=204)


@app.websocket("/ws")
async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    with contextlib.suppress(WebSocketDisconnect):
        while True:
            await websocket.send_text(await websocket.receive_text())
