"""webshootout workloads on CherryPy, served by its own server, Cheroot (see docs/workloads.md)."""

import logging
import random

import cherrypy
import jinja2
from psycopg_pool import ConnectionPool
from shootout_common import env, hashing, psycopg_queries, psycopg_sessions
from shootout_common import techempower as te
from ws4py.server.cherrypyserver import WebSocketPlugin, WebSocketTool
from ws4py.websocket import EchoWebSocket

HASH_FILE = env.value("HASH_FILE")

# CherryPy ships no template engine; its docs' templating pages use Jinja2. Autoescape for HTML.
templates = jinja2.Environment(loader=jinja2.FileSystemLoader("templates"), autoescape=True)

# One process serves everything, so its one pool holds every connection the server may open
# (DB_POOL_TOTAL), shared by Cheroot's worker threads. Autocommit as shootout_common's pools.
pool = ConnectionPool(env.value("DATABASE_URL"), min_size=env.db_pool_total(), max_size=env.db_pool_total(),
                      kwargs={"autocommit": True}, open=True)
world_cache = te.WorldCache()
psycopg_queries.fill_cache(world_cache, pool)


class Echo(EchoWebSocket):
    """ws4py's echo handler, with its read step finishing what is already buffered.

    ws4py's manager calls once() when epoll sees the socket readable, and once() parses only as many
    bytes as the frame parser asks for next (2 for a header). Over TLS the rest of the record is then
    in the SSL object's buffer, which epoll does not see, so the message waited for the client's next
    packet; over cleartext the kernel buffer keeps the socket readable and the next call comes anyway.
    """

    def once(self):
        if not super().once():
            return False
        while self.buf or (self._is_secure and self.sock.pending()):
            if not super().once():
                return False
        return True


def text(body: str, status: int = 200) -> str:
    cherrypy.response.status = status
    cherrypy.response.headers["Content-Type"] = "text/plain; charset=utf-8"
    return body


class Root:
    @cherrypy.expose
    def plaintext(self):
        return text("Hello, World!")

    @cherrypy.expose
    @cherrypy.tools.json_out()
    def json(self):
        return {"message": "Hello, World!"}

    @cherrypy.expose
    @cherrypy.tools.json_out()
    def db(self):
        with pool.connection() as conn:
            row = conn.execute(
                "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
            ).fetchone()
        return {"id": row[0], "randomNumber": row[1]}

    @cherrypy.expose
    def session(self):
        # CherryPy's sessions tool keeps its data in RAM or files, not PostgreSQL: the visitor's id in a
        # cookie of CherryPy's cookie API, the counter in usersessions.
        morsel = cherrypy.request.cookie.get(psycopg_sessions.COOKIE)
        visit = psycopg_sessions.visit(pool, morsel.value if morsel else None)
        if visit.is_new:
            cookie = cherrypy.response.cookie
            cookie[psycopg_sessions.COOKIE] = visit.uid
            cookie[psycopg_sessions.COOKIE]["path"] = "/"
            cookie[psycopg_sessions.COOKIE]["httponly"] = True
            cookie[psycopg_sessions.COOKIE]["samesite"] = "Lax"
        return text(f"Count is {visit.count}")

    @cherrypy.expose
    def hash(self, n=None):
        try:
            count = hashing.parse_n(n)
        except ValueError as reason:
            return text(str(reason), 400)
        return text(hashing.iterated_sha256(HASH_FILE, count))

    @cherrypy.expose
    @cherrypy.tools.json_out()
    def queries(self, queries=None):
        return psycopg_queries.random_worlds(pool, te.count(queries))

    @cherrypy.expose
    @cherrypy.tools.json_out()
    def updates(self, queries=None):
        return psycopg_queries.updated_worlds(pool, te.count(queries))

    @cherrypy.expose
    def fortunes(self):
        cherrypy.response.headers["Content-Type"] = "text/html; charset=utf-8"
        return templates.get_template("fortunes.html").render(fortunes=psycopg_queries.fortunes(pool))

    @cherrypy.expose(["cached-queries"])
    @cherrypy.tools.json_out()
    def cached_queries(self, count=None):
        return world_cache.pick(te.count(count))

    @cherrypy.expose
    def ws(self):
        # ws4py's tool has upgraded the connection and handed it to its manager thread by now.
        pass


def main() -> None:
    cherrypy.config.update({
        # CherryPy's production environment: no autoreload, no tracebacks, nothing logged to the screen.
        "environment": "production",
        "server.socket_host": env.value("HOST"),
        "server.socket_port": int(env.value("PORT")),
        "log.access_file": "",
    })
    # The production environment logs nothing to the screen; warnings and errors still go to stderr
    # (the harness's server log), the engine's INFO lines and the access log do not.
    to_stderr = logging.StreamHandler()
    to_stderr.setLevel(logging.WARNING)
    cherrypy.log.error_log.addHandler(to_stderr)
    context = env.tls_context()
    if context is not None:
        # Cheroot's builtin adapter (Python's ssl), given the same files.
        cherrypy.config.update({"server.ssl_module": "builtin", "server.ssl_certificate": env.value("TLS_CERT"),
                                "server.ssl_private_key": env.value("TLS_KEY")})
    # WebSocket through ws4py, the library CherryPy's docs point to for it: the plugin runs the open
    # sockets in its manager thread, the tool upgrades the request.
    WebSocketPlugin(cherrypy.engine).subscribe()
    cherrypy.tools.websocket = WebSocketTool()
    cherrypy.quickstart(Root(), "/", {
        "/static": {"tools.staticdir.on": True, "tools.staticdir.dir": env.value("STATIC_DIR")},
        "/ws": {"tools.websocket.on": True, "tools.websocket.handler_cls": Echo},
    })


if __name__ == "__main__":
    main()
