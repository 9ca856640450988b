package webshootout.vertx;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.common.template.TemplateEngine;
import io.vertx.ext.web.templ.pebble.PebbleTemplateEngine;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Row;
import io.vertx.sqlclient.Tuple;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import webshootout.common.Fortune;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates, fortunes and cached on the reactive PostgreSQL client (its own API: raw). */
final class DbHandlers {
    private static final String SELECT = "SELECT id, randomnumber FROM world WHERE id = $1";
    private static final String UPDATE = "UPDATE world SET randomnumber = $1 WHERE id = $2";

    private final Pool pool;
    private final WorldCache cache;
    private final TemplateEngine templates;

    DbHandlers(Vertx vertx, Pool pool, WorldCache cache) {
        this.pool = pool;
        this.cache = cache;
        this.templates = PebbleTemplateEngine.create(vertx);
    }

    private Future<World> read(int id) {
        return pool.preparedQuery(SELECT).execute(Tuple.of(id)).map(rows -> {
            Row row = rows.iterator().next();
            return new World(row.getInteger(0), row.getInteger(1));
        });
    }

    /** One query per id, all in flight at once (pipelined on the pool's connections). */
    private Future<List<World>> read(int[] ids) {
        List<Future<World>> reads = new ArrayList<>(ids.length);
        for (int id : ids) {
            reads.add(read(id));
        }
        return Future.all(reads).map(all -> all.<World>list());
    }

    private static JsonObject json(World world) {
        return new JsonObject().put("id", world.id()).put("randomNumber", world.randomNumber());
    }

    private static JsonArray json(List<World> worlds) {
        JsonArray array = new JsonArray(new ArrayList<>(worlds.size()));
        for (World world : worlds) {
            array.add(json(world));
        }
        return array;
    }

    void db(RoutingContext ctx) {
        read(TechEmpower.randomId()).onSuccess(world -> ctx.json(json(world))).onFailure(ctx::fail);
    }

    void queries(RoutingContext ctx) {
        read(TechEmpower.randomIds(TechEmpower.count(ctx.request().getParam("queries"))))
                .onSuccess(rows -> ctx.json(json(rows))).onFailure(ctx::fail);
    }

    /** One UPDATE per row, the request's rows sent as one batch (executeBatch). */
    void updates(RoutingContext ctx) {
        read(TechEmpower.randomIds(TechEmpower.count(ctx.request().getParam("queries"))))
                .compose(read -> {
                    List<World> rows = TechEmpower.renumbered(read);
                    List<Tuple> batch = new ArrayList<>(rows.size());
                    for (World row : rows) {
                        batch.add(Tuple.of(row.randomNumber(), row.id()));
                    }
                    return pool.preparedQuery(UPDATE).executeBatch(batch).map(done -> rows);
                })
                .onSuccess(rows -> ctx.json(json(rows))).onFailure(ctx::fail);
    }

    void cached(RoutingContext ctx) {
        ctx.json(json(cache.random(TechEmpower.count(ctx.request().getParam("count")))));
    }

    void fortunes(RoutingContext ctx) {
        pool.preparedQuery("SELECT id, message FROM fortune").execute()
                .map(rows -> {
                    List<Fortune> read = new ArrayList<>(rows.size());
                    rows.forEach(row -> read.add(new Fortune(row.getInteger(0), row.getString(1))));
                    return TechEmpower.withExtraSorted(read);
                })
                .compose(sorted -> templates.render(Map.of("fortunes", sorted), "templates/fortunes.peb"))
                .onSuccess(html -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, "text/html; charset=utf-8").end(html))
                .onFailure(ctx::fail);
    }
}
