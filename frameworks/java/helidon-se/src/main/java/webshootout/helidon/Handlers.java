package webshootout.helidon;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.helidon.http.HeaderNames;
import io.helidon.http.SetCookie;
import io.helidon.http.Status;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import jakarta.json.Json;
import jakarta.json.JsonArrayBuilder;
import jakarta.json.JsonBuilderFactory;
import jakarta.json.JsonObject;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import webshootout.common.Hashing;
import webshootout.common.JdbcSessions;
import webshootout.common.JdbcWorkloads;
import webshootout.common.World;

/** The HTTP routes, on Helidon's routing; JSON through Helidon's JSON-P media support. */
final class Handlers {
    static final String TEXT = "text/plain; charset=utf-8";
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);
    private static final JsonBuilderFactory JSON = Json.createBuilderFactory(Map.of());

    private final JdbcWorkloads workloads;
    private final JdbcSessions sessions;
    private final Path hashFile;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache fortunes = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    Handlers(JdbcWorkloads workloads, DataSource pool, Path hashFile) {
        this.workloads = workloads;
        this.hashFile = hashFile;
        this.sessions = new JdbcSessions(pool, Handlers::parseData, Handlers::formatData);
    }

    void routing(HttpRouting.Builder routing) {
        routing
                // Helidon sends Date itself but no Server header: the contract's fallback, its name.
                .any((req, res) -> {
                    res.header(HeaderNames.SERVER, "Helidon");
                    res.next();
                })
                .get("/plaintext", (req, res) -> {
                    res.header(HeaderNames.CONTENT_TYPE, TEXT);
                    res.send(HELLO);
                })
                .get("/json", (req, res) -> res.send(JSON.createObjectBuilder().add("message", "Hello, World!").build()))
                .get("/db", (req, res) -> res.send(json(workloads.db())))
                .get("/queries", (req, res) -> res.send(json(workloads.queries(param(req, "queries")))))
                .get("/updates", (req, res) -> res.send(json(workloads.updates(param(req, "queries")))))
                .get("/cached-queries", (req, res) -> res.send(json(workloads.cached(param(req, "count")))))
                .get("/fortunes", this::fortunes)
                .get("/session", this::session)
                .get("/hash", this::hash);
    }

    private void fortunes(ServerRequest req, ServerResponse res) throws Exception {
        StringWriter html = new StringWriter(2048);
        fortunes.execute(html, Map.of("fortunes", workloads.fortunes()));
        res.header(HeaderNames.CONTENT_TYPE, "text/html; charset=utf-8");
        res.send(html.toString().getBytes(StandardCharsets.UTF_8));
    }

    private void session(ServerRequest req, ServerResponse res) throws Exception {
        String uid = req.headers().cookies().first(JdbcSessions.COOKIE).orElse(null);
        JdbcSessions.Visit visit = sessions.visit(uid);
        if (visit.newUid() != null) {
            res.headers().addCookie(SetCookie.builder(JdbcSessions.COOKIE, visit.newUid()).path("/").httpOnly(true).build());
        }
        res.header(HeaderNames.CONTENT_TYPE, TEXT);
        res.send(("Count is " + visit.count()).getBytes(StandardCharsets.UTF_8));
    }

    private void hash(ServerRequest req, ServerResponse res) throws Exception {
        res.header(HeaderNames.CONTENT_TYPE, TEXT);
        String raw = param(req, "n");
        String reason = Hashing.reason(raw);
        if (reason != null) {
            res.status(Status.BAD_REQUEST_400).send(reason.getBytes(StandardCharsets.UTF_8));
            return;
        }
        res.send(Hashing.hex(hashFile, Integer.parseInt(raw)).getBytes(StandardCharsets.US_ASCII));
    }

    private static String param(ServerRequest req, String name) {
        return req.query().first(name).orElse(null);
    }

    private static JsonObject json(World world) {
        return JSON.createObjectBuilder().add("id", world.id()).add("randomNumber", world.randomNumber()).build();
    }

    private static jakarta.json.JsonArray json(List<World> worlds) {
        JsonArrayBuilder array = JSON.createArrayBuilder();
        for (World world : worlds) {
            array.add(json(world));
        }
        return array.build();
    }

    private static JdbcSessions.Data parseData(String data) {
        try (var reader = Json.createReader(new java.io.StringReader(data))) {
            return new JdbcSessions.Data(reader.readObject().getInt("count"));
        }
    }

    private static String formatData(JdbcSessions.Data data) {
        return JSON.createObjectBuilder().add("count", data.count()).build().toString();
    }
}
