"""webshootout workloads on Tornado (see docs/workloads.md).

Tornado's documented multi-process setup: bind the sockets, fork one process per worker (the parent
stays behind to supervise them), then start an event loop and a database pool in each child.
"""

import argparse
import asyncio
import random
import ssl

import asyncpg
import uvloop
import tornado.httpserver
import tornado.netutil
import tornado.process
import tornado.web
import tornado.websocket
from shootout_common import asyncpg_queries, env, hashing, sessions
from shootout_common import techempower as te
from tornado.escape import json_encode
from tornado.ioloop import IOLoop

HASH_FILE = env.value("HASH_FILE")


class TextHandler(tornado.web.RequestHandler):
    """Tornado's default Content-Type is text/html; these workloads answer text/plain."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "text/plain; charset=UTF-8")


class Plaintext(TextHandler):
    def get(self) -> None:
        self.write("Hello, World!")


class Async(TextHandler):
    async def get(self) -> None:
        # The async workload: a coroutine handler awaiting asyncio's non-blocking sleep on Tornado's IOLoop
        # (an asyncio loop), then plaintext's answer.
        await asyncio.sleep(0.015)
        self.write("Hello, World!")


class Json(tornado.web.RequestHandler):
    def get(self) -> None:
        # write() of a dict serializes it and sets application/json.
        self.write({"message": "Hello, World!"})


class PoolHandler(tornado.web.RequestHandler):
    def initialize(self, pool: asyncpg.Pool) -> None:
        self.pool = pool


class Db(PoolHandler):
    async def get(self) -> None:
        row = await self.pool.fetchrow(
            "SELECT id, randomnumber FROM world WHERE id = $1", random.randint(1, 10000)
        )
        self.write({"id": row["id"], "randomNumber": row["randomnumber"]})


class JsonListHandler(PoolHandler):
    """write() takes a dict, never a list (a JSON array), so an array is encoded here."""

    def write_list(self, rows: list) -> None:
        self.set_header("Content-Type", "application/json")
        self.write(json_encode(rows))


class Queries(JsonListHandler):
    async def get(self) -> None:
        n = te.count(self.get_query_argument("queries", None))
        self.write_list(await asyncpg_queries.random_worlds(self.pool, n))


class Updates(JsonListHandler):
    async def get(self) -> None:
        n = te.count(self.get_query_argument("queries", None))
        self.write_list(await asyncpg_queries.updated_worlds(self.pool, n))


class Fortunes(PoolHandler):
    async def get(self) -> None:
        # tornado.template escapes every {{ }} expression (autoescape xhtml_escape is the default).
        self.render("fortunes.html", fortunes=await asyncpg_queries.fortunes(self.pool))


class CachedQueries(JsonListHandler):
    def initialize(self, cache: te.WorldCache) -> None:
        self.cache = cache

    def get(self) -> None:
        self.write_list(self.cache.pick(te.count(self.get_query_argument("count", None))))


class Session(PoolHandler, TextHandler):
    async def get(self) -> None:
        visit = await sessions.visit(self.pool, self.get_cookie(sessions.COOKIE))
        if visit.is_new:
            self.set_cookie(sessions.COOKIE, visit.uid, httponly=True, samesite="Lax")
        self.write(f"Count is {visit.count}")


class Hash(TextHandler):
    async def get(self) -> None:
        try:
            n = hashing.parse_n(self.get_query_argument("n", None))
        except ValueError as reason:
            self.set_status(400)
            self.write(str(reason))
            return
        # In the executor, so the file read and the hash chain do not stall the event loop.
        self.write(await IOLoop.current().run_in_executor(None, hashing.iterated_sha256, HASH_FILE, n))


class Echo(tornado.websocket.WebSocketHandler):
    async def on_message(self, message: str | bytes) -> None:
        await self.write_message(message, binary=isinstance(message, bytes))


async def serve(sockets: list, tls: ssl.SSLContext | None) -> None:
    async with sessions.create_pool() as pool:
        world_cache = te.WorldCache()
        await asyncpg_queries.fill_cache(world_cache, pool)
        app = tornado.web.Application(
            [
                (r"/plaintext", Plaintext),
                (r"/async", Async),
                (r"/json", Json),
                (r"/db", Db, {"pool": pool}),
                (r"/session", Session, {"pool": pool}),
                (r"/hash", Hash),
                (r"/queries", Queries, {"pool": pool}),
                (r"/updates", Updates, {"pool": pool}),
                (r"/fortunes", Fortunes, {"pool": pool}),
                (r"/cached-queries", CachedQueries, {"cache": world_cache}),
                (r"/ws", Echo),
            ],
            # StaticFileHandler, Tornado's own static path, serves STATIC_DIR at /static/.
            static_path=env.value("STATIC_DIR"),
            static_url_prefix="/static/",
            template_path="templates",
            # No access log: one log line per request is not part of what is measured.
            log_function=lambda handler: None,
        )
        # An ssl.SSLContext (TLS_CERT/TLS_KEY given) serves TLS only; None: cleartext.
        server = tornado.httpserver.HTTPServer(app, ssl_options=tls)
        server.add_sockets(sockets)
        await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), required=True)
    loop = parser.parse_args().loop
    tls = env.tls_context()  # before forking: a bad TLS_CERT/TLS_KEY stops the parent, not each child
    sockets = tornado.netutil.bind_sockets(env.positive_int("PORT"), env.value("HOST"))
    tornado.process.fork_processes(env.positive_int("WORKERS"))
    (uvloop.run if loop == "uvloop" else asyncio.run)(serve(sockets, tls))


if __name__ == "__main__":
    main()
