"""webshootout workloads on Litestar (see docs/workloads.md), served by uvicorn."""

import asyncio
import contextlib
from pathlib import Path
from typing import Annotated

import msgspec
from litestar import Litestar, MediaType, Request, Response, delete, get, post, put, websocket_listener
from litestar.config.compression import CompressionConfig
from litestar.datastructures import Cookie, State
from litestar.exceptions import NotFoundException, ValidationException
from litestar.params import Parameter
from litestar.plugins.jinja import JinjaTemplateEngine
from litestar.response import Template
from litestar.static_files import create_static_files_router
from litestar.template.config import TemplateConfig
from shootout_common import asyncpg_items, asyncpg_queries, env, hashing, items, jsoncomp, sessions, upload
from shootout_common import techempower as te

HASH_FILE = env.value("HASH_FILE")


@contextlib.asynccontextmanager
async def database(app: Litestar):
    # Opened in the lifespan, i.e. inside each uvicorn worker's own event loop.
    async with sessions.create_pool() as pool:
        app.state.pool = pool
        app.state.world_cache = te.WorldCache()
        await asyncpg_queries.fill_cache(app.state.world_cache, pool)
        yield


@get("/plaintext", media_type=MediaType.TEXT)
async def plaintext() -> str:
    return "Hello, World!"


@get("/async", media_type=MediaType.TEXT)
async def async_() -> str:
    # The async workload: asyncio's non-blocking sleep, then plaintext's answer.
    await asyncio.sleep(0.015)
    return "Hello, World!"


@get("/json")
async def json_() -> dict[str, str]:
    return {"message": "Hello, World!"}


@get("/db")
async def db(state: State) -> dict[str, int]:
    row = await state.pool.fetchrow(te.SELECT_WORLD_ASYNCPG, te.random_id())
    return te.world(row["id"], row["randomnumber"])


@get("/session", media_type=MediaType.TEXT)
async def session(request: Request, state: State) -> Response[str]:
    visit = await sessions.visit(state.pool, request.cookies.get(sessions.COOKIE))
    cookies = [Cookie(key=sessions.COOKIE, value=visit.uid, httponly=True, samesite="lax")] if visit.is_new else []
    return Response(f"Count is {visit.count}", media_type=MediaType.TEXT, cookies=cookies)


# sync_to_thread: Litestar runs it in its thread pool, so the file read and the hash chain do not stall
# the event loop. n is taken as text: the contract wants a one-line reason, not Litestar's JSON error.
@get("/hash", media_type=MediaType.TEXT, sync_to_thread=True)
def hash_(n: str | None = None) -> Response[str]:
    try:
        count = hashing.parse_n(n)
    except ValueError as reason:
        return Response(str(reason), status_code=400, media_type=MediaType.TEXT)
    return Response(hashing.iterated_sha256(HASH_FILE, count), media_type=MediaType.TEXT)


# The counts are text: out-of-range and non-integer values mean 1 or 500 here, not a 400.
@get("/queries")
async def queries(state: State, queries: str | None = None) -> list[dict[str, int]]:
    return await asyncpg_queries.random_worlds(state.pool, te.count(queries))


@get("/updates")
async def updates(state: State, queries: str | None = None) -> list[dict[str, int]]:
    return await asyncpg_queries.updated_worlds(state.pool, te.count(queries))


@get("/fortunes")
async def fortunes(state: State) -> Template:
    return Template(template_name="fortunes.html", context={"fortunes": await asyncpg_queries.fortunes(state.pool)})


@get("/cached-queries")
async def cached_queries(state: State, count: str | None = None) -> list[dict[str, int]]:
    return state.world_cache.pick(te.count(count))


@get("/json-comp")
async def json_comp(n: str | None = None) -> list[dict[str, int | str]]:
    return jsoncomp.items(jsoncomp.count(n))


# 200, not a POST handler's default 201: the answer creates nothing.
@post("/upload", media_type=MediaType.TEXT, status_code=200)
async def upload_body(request: Request) -> str:
    # request.stream(): the body as the server hands it over, hashed piece by piece; Litestar stops it with a 413
    # past request_max_body_size.
    digest = upload.BodyDigest()
    async for piece in request.stream():
        digest.update(piece)
    return digest.answer()


class Quantity(int):
    """A JSON integer in 32 bits. Litestar converts a body in msgspec's lax mode, where "3" and 3.0 would become 3;
    the type_decoders entry below (Litestar's hook for custom types) takes integers only."""


def decode_quantity(type_: type[Quantity], value: object) -> Quantity:
    if type(value) is not int or not items.INT_MIN <= value <= items.INT_MAX:
        raise TypeError("quantity must be an integer in 32 bits")
    return type_(value)


class ItemFields(msgspec.Struct):
    name: str
    quantity: Quantity


def unprocessable(request: Request, exc: ValidationException) -> Response:
    # Litestar answers 400 to every validation failure; a body of the wrong shape is the contract's 422 (a body that
    # is not JSON is a decode error, another exception, and stays 400), query parameters stay 400.
    body = isinstance(exc.extra, list) and any(
        isinstance(error, dict) and error.get("source") == "body" for error in exc.extra
    )
    status = 422 if body else exc.status_code
    return Response({"status_code": status, "detail": exc.detail, "extra": exc.extra}, status_code=status)


# crud: Litestar's per-method route handlers on its int path parameter, the msgspec Struct above as the body,
# asyncpg as db uses.
@get("/items/{item_id:int}", name="item")
async def get_item(state: State, item_id: int) -> dict:
    item = await asyncpg_items.get(state.pool, item_id)
    if item is None:
        raise NotFoundException()
    return item


@get("/items")
async def list_items(
    state: State,
    page: Annotated[int, Parameter(ge=1, le=items.INT_MAX)] = items.PAGE,
    size: Annotated[int, Parameter(ge=1, le=items.MAX_SIZE)] = items.SIZE,
) -> list[dict]:
    return await asyncpg_items.page(state.pool, size, items.offset(page, size))


@post("/items")
async def create_item(request: Request, state: State, data: ItemFields) -> Response[dict]:
    item = await asyncpg_items.create(state.pool, data.name, int(data.quantity))
    return Response(item, status_code=201, headers={"Location": request.app.route_reverse("item", item_id=item["id"])})


@put("/items/{item_id:int}")
async def update_item(state: State, item_id: int, data: ItemFields) -> dict:
    item = await asyncpg_items.update(state.pool, item_id, data.name, int(data.quantity))
    if item is None:
        raise NotFoundException()
    return item


@delete("/items/{item_id:int}")
async def delete_item(state: State, item_id: int) -> None:
    if not await asyncpg_items.delete(state.pool, item_id):
        raise NotFoundException()


@websocket_listener("/ws")
async def echo(data: str) -> str:
    return data


app = Litestar(
    route_handlers=[
        plaintext, async_, json_, db, session, hash_, queries, updates, fortunes, cached_queries, json_comp,
        upload_body, echo, get_item, list_items, create_item, update_item, delete_item,
        create_static_files_router(path="/static", directories=[env.value("STATIC_DIR")]),
    ],
    lifespan=[database],
    type_decoders=[(lambda type_: type_ is Quantity, decode_quantity)],
    exception_handlers={ValidationException: unprocessable},
    # Litestar's Jinja2 engine, which turns autoescaping on.
    template_config=TemplateConfig(directory=Path("templates"), engine=JinjaTemplateEngine),
    # Litestar's compression (Usage > Middleware > Built-in middlewares > Compression), gzip at its defaults:
    # level 9 for answers of 500 bytes and more whose client accepts gzip, Vary: Accept-Encoding added.
    compression_config=CompressionConfig(backend="gzip"),
    # Litestar's request body limit (Litestar(request_max_body_size=...), 10 MB by default): a 413 past it, chunked
    # bodies counted as they arrive.
    request_max_body_size=upload.MAX_BODY,
)
