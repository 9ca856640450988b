package webshootout.undertow;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.util.Headers;
import java.io.StringWriter;
import java.util.Map;
import webshootout.common.JdbcWorkloads;

/** fortunes: every row of fortune plus one, sorted, through Mustache.java's template and HTML escaping. */
final class Fortunes implements HttpHandler {
    private final JdbcWorkloads workloads;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache template = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    Fortunes(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        StringWriter html = new StringWriter(2048);
        template.execute(html, Map.of("fortunes", workloads.fortunes()));
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "text/html; charset=utf-8");
        exchange.getResponseSender().send(html.toString());
    }
}
