"""webshootout workloads on Flask (see docs/workloads.md)."""

import random
import time

from flask import Flask, Response, abort, jsonify, render_template, request, url_for
from flask_compress import Compress
from shootout_common import env, hashing, items, jsoncomp, psycopg_items, psycopg_queries, psycopg_sessions, upload
from shootout_common import techempower as te

# Flask's own static route (send_from_directory underneath) serves STATIC_DIR at /static.
app = Flask(__name__, static_folder=env.value("STATIC_DIR"), static_url_path="/static")

# Flask's request body limit (Flask's configuration docs, MAX_CONTENT_LENGTH): request.stream raises 413 past it,
# for a chunked body too, since gunicorn, Granian and the development server set wsgi.input_terminated.
app.config["MAX_CONTENT_LENGTH"] = upload.MAX_BODY

# Flask has no compression of its own; Flask-Compress is its ecosystem's, at its defaults (brotli, zstd, gzip and
# deflate by the client's Accept-Encoding, gzip level 6, 500-byte minimum, application/json among its types).
# App-wide, as its docs set it up: any answer a client asks compressed, not only json-comp's.
Compress(app)

HASH_FILE = env.value("HASH_FILE")

# Created at import, so in each gunicorn worker after the fork (no --preload). A sync worker uses one
# connection at a time, the gthread worker and the threaded dev server one per busy thread.
pool = psycopg_sessions.create_pool()

# Filled once per worker, at import (after the fork), for cached.
world_cache = te.WorldCache()
psycopg_queries.fill_cache(world_cache, pool)


def text(body: str, status: int = 200) -> Response:
    return Response(body, status=status, mimetype="text/plain")


@app.get("/plaintext")
def plaintext():
    return text("Hello, World!")


@app.get("/async")
def async_():
    # The async workload. Flask on WSGI has no event loop: the wait holds the request's thread (gunicorn
    # gthread, Granian's blocking threads, the development server's thread per connection).
    time.sleep(0.015)
    return text("Hello, World!")


@app.get("/json")
def json_():
    return jsonify(message="Hello, World!")


@app.get("/db")
def db():
    with pool.connection() as conn:
        row = conn.execute(
            "SELECT id, randomnumber FROM world WHERE id = %s", (random.randint(1, 10000),)
        ).fetchone()
    return jsonify(id=row[0], randomNumber=row[1])


@app.get("/session")
def session():
    visit = psycopg_sessions.visit(pool, request.cookies.get(psycopg_sessions.COOKIE))
    response = text(f"Count is {visit.count}")
    if visit.is_new:
        response.set_cookie(psycopg_sessions.COOKIE, visit.uid, httponly=True, samesite="Lax")
    return response


@app.get("/hash")
def hash_():
    try:
        n = hashing.parse_n(request.args.get("n"))
    except ValueError as reason:
        return text(str(reason), 400)
    return text(hashing.iterated_sha256(HASH_FILE, n))


@app.get("/queries")
def queries():
    return jsonify(psycopg_queries.random_worlds(pool, te.count(request.args.get("queries"))))


@app.get("/updates")
def updates():
    return jsonify(psycopg_queries.updated_worlds(pool, te.count(request.args.get("queries"))))


@app.get("/fortunes")
def fortunes():
    # Flask's Jinja2 environment autoescapes .html templates.
    return render_template("fortunes.html", fortunes=psycopg_queries.fortunes(pool))


@app.get("/cached-queries")
def cached_queries():
    return jsonify(world_cache.pick(te.count(request.args.get("count"))))


@app.get("/json-comp")
def json_comp():
    return jsonify(jsoncomp.items(jsoncomp.count(request.args.get("n"))))


@app.post("/upload")
def upload_body():
    # request.stream: the body as the server hands it over (Content-Length or chunked), hashed piece by piece.
    digest = upload.BodyDigest()
    for piece in iter(lambda: request.stream.read(65536), b""):
        digest.update(piece)
    return text(digest.answer())


# crud: Flask's per-method routes on Werkzeug's int converter, its JSON, plain checks (Flask has no validation of
# its own), and the same psycopg pool as db. request.get_json() answers 400 itself to a body that is not JSON.
@app.get("/items/<int:item_id>")
def get_item(item_id):
    item = psycopg_items.get(pool, item_id)
    if item is None:
        abort(404)
    return jsonify(item)


@app.get("/items")
def list_items():
    try:
        limit, offset = items.page_query(request.args.get("page"), request.args.get("size"))
    except ValueError as reason:
        return text(str(reason), 400)
    return jsonify(psycopg_items.page(pool, limit, offset))


def item_fields():
    try:
        return items.fields(request.get_json())
    except ValueError as reason:
        abort(422, description=str(reason))


@app.post("/items")
def create_item():
    item = psycopg_items.create(pool, *item_fields())
    return jsonify(item), 201, {"Location": url_for("get_item", item_id=item["id"])}


@app.put("/items/<int:item_id>")
def update_item(item_id):
    item = psycopg_items.update(pool, item_id, *item_fields())
    if item is None:
        abort(404)
    return jsonify(item)


@app.delete("/items/<int:item_id>")
def delete_item(item_id):
    if not psycopg_items.delete(pool, item_id):
        abort(404)
    return "", 204
