"""webshootout workloads on Pyramid (see docs/workloads.md).

main() is the application factory that production.ini names ([app:main], use = call:app:main), as a
Pyramid project's setup.py entry point would; gunicorn --paste builds the app from it.
"""

import random
import time

from pyramid.config import Configurator
from pyramid.session import SignedCookieSessionFactory
from pyramid.view import view_config
from shootout_common import env, hashing, psycopg_queries, psycopg_sessions
from shootout_common import techempower as te


@view_config(route_name="plaintext", renderer="string")
def plaintext(request):
    return "Hello, World!"


@view_config(route_name="async", renderer="string")
def async_(request):
    # The async workload. Pyramid is WSGI only: the wait holds the request's thread (gunicorn gthread).
    time.sleep(0.015)
    return "Hello, World!"


@view_config(route_name="json", renderer="json")
def json_(request):
    return {"message": "Hello, World!"}


@view_config(route_name="db", renderer="json")
def db(request):
    with request.pool.connection() as conn:
        row = conn.execute(
            "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
        ).fetchone()
    return {"id": row[0], "randomNumber": row[1]}


@view_config(route_name="session", renderer="string")
def session(request):
    # Pyramid's session (a signed cookie) carries the visitor's id; the counter lives in usersessions.
    visit = psycopg_sessions.visit(request.pool, request.session.get("uid"))
    if visit.is_new:
        request.session["uid"] = visit.uid
    return f"Count is {visit.count}"


@view_config(route_name="hash", renderer="string")
def hash_(request):
    try:
        n = hashing.parse_n(request.GET.get("n"))
    except ValueError as reason:
        request.response.status_int = 400
        return str(reason)
    return hashing.iterated_sha256(request.registry.settings["hash_file"], n)


@view_config(route_name="queries", renderer="json")
def queries(request):
    return psycopg_queries.random_worlds(request.pool, te.count(request.GET.get("queries")))


@view_config(route_name="updates", renderer="json")
def updates(request):
    return psycopg_queries.updated_worlds(request.pool, te.count(request.GET.get("queries")))


# pyramid_jinja2's renderer; its environment autoescapes (jinja2.autoescape defaults to true).
@view_config(route_name="fortunes", renderer="templates/fortunes.jinja2")
def fortunes(request):
    return {"fortunes": psycopg_queries.fortunes(request.pool)}


@view_config(route_name="cached", renderer="json")
def cached_queries(request):
    return request.registry.world_cache.pick(te.count(request.GET.get("count")))


def main(global_config, **settings):
    """Called in each gunicorn worker after the fork (no --preload), so each opens its own pool."""
    settings["hash_file"] = env.value("HASH_FILE")
    with Configurator(settings=settings) as config:
        pool = psycopg_sessions.create_pool()
        config.add_request_method(lambda request: pool, "pool", reify=True)
        config.registry.world_cache = te.WorldCache()
        psycopg_queries.fill_cache(config.registry.world_cache, pool)
        # Signed with SECRET_KEY; no timeout and no reissue, so the cookie is set only when the
        # session changes (a new visitor), not on every request.
        config.set_session_factory(SignedCookieSessionFactory(
            env.value("SECRET_KEY"), cookie_name=psycopg_sessions.COOKIE, httponly=True,
            timeout=None, reissue_time=None))
        config.include("pyramid_jinja2")
        for name, path in [("plaintext", "/plaintext"), ("async", "/async"), ("json", "/json"), ("db", "/db"),
                           ("session", "/session"), ("hash", "/hash"), ("queries", "/queries"),
                           ("updates", "/updates"), ("fortunes", "/fortunes"), ("cached", "/cached-queries")]:
            config.add_route(name, path, request_method="GET")
        # Pyramid's static view (FileResponse, which hands the file to the server's wsgi.file_wrapper).
        config.add_static_view(name="static", path=env.value("STATIC_DIR"))
        config.scan(__name__)
    return config.make_wsgi_app()
