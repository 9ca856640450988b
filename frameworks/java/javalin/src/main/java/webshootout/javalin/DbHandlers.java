package webshootout.javalin;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.javalin.http.Context;
import java.io.StringWriter;
import java.sql.Connection;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import webshootout.common.Fortune;
import webshootout.common.JdbcWorlds;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates, fortunes and cached: raw JDBC on HikariCP, JSON by Javalin's Jackson mapper. */
final class DbHandlers {
    private final DataSource pool;
    private final WorldCache cache;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache fortunes = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    DbHandlers(DataSource pool, WorldCache cache) {
        this.pool = pool;
        this.cache = cache;
    }

    void db(Context ctx) throws Exception {
        try (Connection connection = pool.getConnection()) {
            ctx.json(JdbcWorlds.one(connection, TechEmpower.randomId()));
        }
    }

    void queries(Context ctx) throws Exception {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(ctx.queryParam("queries")));
        try (Connection connection = pool.getConnection()) {
            ctx.json(JdbcWorlds.read(connection, ids));
        }
    }

    /** One UPDATE per row, the request's rows sent as one JDBC batch. */
    void updates(Context ctx) throws Exception {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(ctx.queryParam("queries")));
        try (Connection connection = pool.getConnection()) {
            List<World> rows = TechEmpower.renumbered(JdbcWorlds.read(connection, ids));
            JdbcWorlds.write(connection, rows);
            ctx.json(rows);
        }
    }

    void cached(Context ctx) {
        ctx.json(cache.random(TechEmpower.count(ctx.queryParam("count"))));
    }

    void fortunes(Context ctx) throws Exception {
        List<Fortune> read;
        try (Connection connection = pool.getConnection()) {
            read = JdbcWorlds.fortunes(connection);
        }
        StringWriter html = new StringWriter(2048);
        fortunes.execute(html, Map.of("fortunes", TechEmpower.withExtraSorted(read)));
        ctx.contentType("text/html; charset=utf-8").result(html.toString());
    }
}
