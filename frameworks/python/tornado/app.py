"""webshootout workloads on Tornado (see docs/workloads.md).

Tornado's documented multi-process setup: bind the sockets, fork one process per worker (the parent
stays behind to supervise them), then start an event loop and a database pool in each child.
"""

import argparse
import asyncio
import random

import asyncpg
import uvloop
import tornado.httpserver
import tornado.netutil
import tornado.process
import tornado.web
import tornado.websocket
from shootout_common import env, hashing, sessions
from tornado.ioloop import IOLoop

HASH_FILE = env.value("HASH_FILE")


class TextHandler(tornado.web.RequestHandler):
    """Tornado's default Content-Type is text/html; these workloads answer text/plain."""

    def set_default_headers(self) -> None:
        self.set_header("Content-Type", "text/plain; charset=UTF-8")


class Plaintext(TextHandler):
    def get(self) -> None:
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


async def serve(sockets: list) -> None:
    async with sessions.create_pool() as pool:
        app = tornado.web.Application(
            [
                (r"/plaintext", Plaintext),
                (r"/json", Json),
                (r"/db", Db, {"pool": pool}),
                (r"/session", Session, {"pool": pool}),
                (r"/hash", Hash),
                (r"/ws", Echo),
            ],
            # StaticFileHandler, Tornado's own static path, serves STATIC_DIR at /static/.
            static_path=env.value("STATIC_DIR"),
            static_url_prefix="/static/",
            # No access log: one log line per request is not part of what is measured.
            log_function=lambda handler: None,
        )
        server = tornado.httpserver.HTTPServer(app)
        server.add_sockets(sockets)
        await asyncio.Event().wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--loop", choices=("asyncio", "uvloop"), required=True)
    loop = parser.parse_args().loop
    sockets = tornado.netutil.bind_sockets(env.positive_int("PORT"), env.value("HOST"))
    tornado.process.fork_processes(env.positive_int("WORKERS"))
    (uvloop.run if loop == "uvloop" else asyncio.run)(serve(sockets))


if __name__ == "__main__":
    main()
