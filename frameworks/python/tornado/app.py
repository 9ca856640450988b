"""webshootout workloads on Tornado (see docs/workloads.md).

Tornado's documented multi-process setup: bind the sockets, fork one process per worker (the parent
stays behind to supervise them), then start an event loop and a database pool in each child.
"""

import argparse
import asyncio
import hashlib
import json
import os
import random
import re
import secrets

import asyncpg
import uvloop
import tornado.httpserver
import tornado.netutil
import tornado.process
import tornado.web
import tornado.websocket
from tornado.ioloop import IOLoop

HASH_FILE = os.environ["HASH_FILE"]
SESSION_COOKIE = "uid"
INTEGER = re.compile(r"-?[0-9]+")
# Each process is an event loop with many requests in flight, so it gets a pool of its own;
# the processes share a budget that stays well under PostgreSQL's default max_connections (100).
POOL_SIZE = max(4, 32 // int(os.environ["WORKERS"]))


def session_data(count: int) -> str:
    return json.dumps({"count": count}, separators=(",", ":"))


def iterated_sha256(n: int) -> str:
    with open(HASH_FILE, "rb") as f:
        digest = hashlib.sha256(f.read()).digest()
    for _ in range(n - 1):
        digest = hashlib.sha256(digest).digest()
    return digest.hex()


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
        uid = self.get_cookie(SESSION_COOKIE)
        async with self.pool.acquire() as conn, conn.transaction():
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
        if is_new:
            self.set_cookie(SESSION_COOKIE, uid, httponly=True, samesite="Lax")
        self.write(f"Count is {count}")


class Hash(TextHandler):
    async def get(self) -> None:
        raw = self.get_query_argument("n", None)
        if raw is None:
            return self.reject("missing query parameter n")
        if not INTEGER.fullmatch(raw):
            return self.reject("n must be an integer")
        n = int(raw)
        if not 1 <= n <= 100000:
            return self.reject("n must be between 1 and 100000")
        # In the executor, so the file read and the hash chain do not stall the event loop.
        self.write(await IOLoop.current().run_in_executor(None, iterated_sha256, n))

    def reject(self, reason: str) -> None:
        self.set_status(400)
        self.write(reason)


class Echo(tornado.websocket.WebSocketHandler):
    async def on_message(self, message: str | bytes) -> None:
        await self.write_message(message, binary=isinstance(message, bytes))


async def serve(sockets: list) -> None:
    async with asyncpg.create_pool(
        os.environ["DATABASE_URL"], min_size=POOL_SIZE, max_size=POOL_SIZE
    ) as pool:
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
            static_path=os.environ["STATIC_DIR"],
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
    sockets = tornado.netutil.bind_sockets(int(os.environ["PORT"]), os.environ["HOST"])
    tornado.process.fork_processes(int(os.environ["WORKERS"]))
    (uvloop.run if loop == "uvloop" else asyncio.run)(serve(sockets))


if __name__ == "__main__":
    main()
