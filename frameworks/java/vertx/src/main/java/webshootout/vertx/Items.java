package webshootout.vertx;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.DecodeException;
import io.vertx.core.json.Json;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.RowSet;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import webshootout.common.Item;

/**
 * crud on table items on the reactive PostgreSQL client's own API (as db and fortunes), one prepared statement
 * per request, writes answered from RETURNING. vertx-web has no validation of its own in this stack (the
 * vertx-web-validation module would bring JSON Schema), so the body, decoded by Vert.x's JSON codec, is checked
 * by hand; refusals go through ctx.fail(status) to vertx-web's error handler.
 */
final class Items {
    static final String PATH = "/items";
    private static final String COLUMNS = "id, name, quantity";
    private static final String SELECT = "SELECT " + COLUMNS + " FROM items WHERE id = $1";
    private static final String PAGE = "SELECT " + COLUMNS + " FROM items ORDER BY id LIMIT $1 OFFSET $2";
    private static final String INSERT = "INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING " + COLUMNS;
    private static final String UPDATE = "UPDATE items SET name = $1, quantity = $2 WHERE id = $3 RETURNING " + COLUMNS;
    private static final String DELETE = "DELETE FROM items WHERE id = $1";

    private final Pool pool;

    Items(Pool pool) {
        this.pool = pool;
    }

    void find(RoutingContext ctx) {
        Integer id = id(ctx);
        if (id == null) {
            ctx.fail(404);
            return;
        }
        pool.preparedQuery(SELECT).execute(Tuple.of(id)).onSuccess(rows -> one(ctx, rows, 200)).onFailure(ctx::fail);
    }

    void page(RoutingContext ctx) {
        Integer page = Item.parameter(ctx.request().getParam("page"), Item.FIRST_PAGE);
        Integer size = Item.parameter(ctx.request().getParam("size"), Item.DEFAULT_SIZE);
        if (page == null || page < Item.FIRST_PAGE || size == null || size < 1 || size > Item.MAX_SIZE) {
            ctx.fail(400);
            return;
        }
        // A page far past the end must not overflow into a negative offset.
        pool.preparedQuery(PAGE).execute(Tuple.of(size, (page - 1L) * size))
                .onSuccess(rows -> {
                    JsonArray items = new JsonArray(new ArrayList<>(rows.size()));
                    rows.forEach(row -> items.add(json(row)));
                    ctx.json(items);
                })
                .onFailure(ctx::fail);
    }

    void create(RoutingContext ctx) {
        JsonObject body = body(ctx);
        if (body == null) {
            return;
        }
        pool.preparedQuery(INSERT).execute(Tuple.of(body.getString("name"), body.getInteger("quantity")))
                .onSuccess(rows -> {
                    Row row = rows.iterator().next();
                    ctx.response().putHeader(HttpHeaders.LOCATION, PATH + "/" + row.getInteger(0));
                    ctx.response().setStatusCode(201);
                    ctx.json(json(row));
                })
                .onFailure(ctx::fail);
    }

    void update(RoutingContext ctx) {
        Integer id = id(ctx);
        if (id == null) {
            ctx.fail(404);
            return;
        }
        JsonObject body = body(ctx);
        if (body == null) {
            return;
        }
        pool.preparedQuery(UPDATE).execute(Tuple.of(body.getString("name"), body.getInteger("quantity"), id))
                .onSuccess(rows -> one(ctx, rows, 200)).onFailure(ctx::fail);
    }

    void delete(RoutingContext ctx) {
        Integer id = id(ctx);
        if (id == null) {
            ctx.fail(404);
            return;
        }
        pool.preparedQuery(DELETE).execute(Tuple.of(id))
                .onSuccess(rows -> {
                    if (rows.rowCount() == 0) {
                        ctx.fail(404);
                    } else {
                        ctx.response().setStatusCode(204).end();
                    }
                })
                .onFailure(ctx::fail);
    }

    private static void one(RoutingContext ctx, RowSet<Row> rows, int status) {
        if (rows.size() == 0) {
            ctx.fail(404);
            return;
        }
        ctx.response().setStatusCode(status);
        ctx.json(json(rows.iterator().next()));
    }

    private static JsonObject json(Row row) {
        return new JsonObject().put("id", row.getInteger(0)).put("name", row.getString(1))
                .put("quantity", row.getInteger(2));
    }

    /** The route's :id as an int, or null when it is not one (no such item then). */
    private static Integer id(RoutingContext ctx) {
        try {
            return Integer.valueOf(ctx.pathParam("id"));
        } catch (NumberFormatException e) {
            return null;
        }
    }

    /**
     * The body read by BodyHandler as a JSON object with a string name and an int quantity, or null once the
     * request has failed: 400 when it is not JSON, 422 when it is JSON of another shape. Vert.x's codec decodes a
     * JSON integer that fits 32 bits as an Integer, a larger one as a Long and a fraction as a Double.
     */
    private static JsonObject body(RoutingContext ctx) {
        Buffer buffer = ctx.body().buffer();
        Object value;
        try {
            // An empty body is no JSON at all; the codec would read it as null, which is JSON of another shape.
            if (buffer == null || buffer.length() == 0) {
                throw new DecodeException("no body");
            }
            value = Json.decodeValue(buffer);
        } catch (DecodeException e) {
            ctx.fail(400);
            return null;
        }
        if (!(value instanceof JsonObject body && body.getValue("name") instanceof String
                && body.getValue("quantity") instanceof Integer)) {
            ctx.fail(422);
            return null;
        }
        return body;
    }
}
