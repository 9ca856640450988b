package webshootout.javalin;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.javalin.http.Context;
import java.io.StringWriter;
import java.util.Map;
import webshootout.common.JdbcWorkloads;

/** db, queries, updates, fortunes and cached: raw JDBC on HikariCP, JSON by Javalin's Jackson mapper. */
final class DbHandlers {
    private final JdbcWorkloads workloads;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache fortunes = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    DbHandlers(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    void db(Context ctx) throws Exception {
        ctx.json(workloads.db());
    }

    void queries(Context ctx) throws Exception {
        ctx.json(workloads.queries(ctx.queryParam("queries")));
    }

    void updates(Context ctx) throws Exception {
        ctx.json(workloads.updates(ctx.queryParam("queries")));
    }

    void cached(Context ctx) {
        ctx.json(workloads.cached(ctx.queryParam("count")));
    }

    void fortunes(Context ctx) throws Exception {
        StringWriter html = new StringWriter(2048);
        fortunes.execute(html, Map.of("fortunes", workloads.fortunes()));
        ctx.contentType("text/html; charset=utf-8").result(html.toString());
    }
}
