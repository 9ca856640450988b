package webshootout.javalin;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.javalin.Javalin;
import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import io.javalin.http.staticfiles.Location;
import io.javalin.json.JavalinJackson;
import java.nio.file.Path;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;
import webshootout.common.Env;
import webshootout.common.JdbcItems;
import webshootout.common.JdbcWorkloads;
import webshootout.common.JsonComp;
import webshootout.common.PemKeyStore;
import webshootout.common.Upload;
import webshootout.common.jetty.Connectors;

/** Javalin 7 on its embedded Jetty, thread per request, every route declared in the config. */
public final class Main {
    static final String TEXT = "text/plain; charset=utf-8";

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.fromSystem();
        PemKeyStore tls = PemKeyStore.fromEnv();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        DbHandlers db = new DbHandlers(new JdbcWorkloads(pool));
        SessionHandler session = new SessionHandler(pool);
        ItemHandlers items = new ItemHandlers(new JdbcItems(pool));
        Path hashFile = Path.of(env.hashFile());

        Javalin app = Javalin.create(config -> {
            config.startup.showJavalinBanner = false;
            config.jsonMapper(new JavalinJackson().updateMapper(ItemHandlers::strict));
            // Handlers block on JDBC, so Jetty's thread pool is sized like the Jetty stack's: room for every
            // pooled connection's request plus the CPU-bound ones (Javalin's default is 250 threads).
            int maxThreads = Math.max(32, 16 * env.workers());
            QueuedThreadPool threads = new QueuedThreadPool(maxThreads, Math.min(8, maxThreads));
            threads.setName("http");
            config.jetty.threadPool = threads;
            // Our own connector for its accept queue: the JDK's default backlog (50) drops SYNs when 64 clients
            // connect at once (see the jetty stack); WORKERS selectors as there. And for TLS and HTTP/2, which
            // Javalin leaves to Jetty's connector (its SSL plugin, javalin-ssl, is not served for 7.2.3 here).
            config.jetty.addConnector((server, http) -> {
                ServerConnector connector = Connectors.connector(server, http, env.workers(), tls);
                connector.setHost(env.host());
                connector.setPort(env.port());
                connector.setAcceptQueueSize(1024);
                return connector;
            });
            // upload: Javalin's documented request-size limit (config.http.maxRequestSize, 1 MB by default), which
            // ctx.bodyAsBytes() enforces while it reads, with 413. Compression is left as Javalin sets it: gzip at
            // level 6 for answers of 1500 bytes and more (CompressionStrategy.GZIP); no brotli without brotli4j.
            config.http.maxRequestSize = Upload.LIMIT;
            config.staticFiles.add(files -> {
                files.hostedPath = "/static";
                files.directory = env.staticDir();
                files.location = Location.EXTERNAL;
            });
            // Javalin turns Jetty's Server header off and sets none: the contract's fallback, its name.
            config.routes.before(ctx -> ctx.header("Server", "Javalin"));
            config.routes.get("/plaintext", ctx -> ctx.contentType(TEXT).result("Hello, World!"));
            config.routes.get("/json", ctx -> ctx.json(new Message("Hello, World!")));
            config.routes.get("/db", db::db);
            config.routes.get("/queries", db::queries);
            config.routes.get("/updates", db::updates);
            config.routes.get("/fortunes", db::fortunes);
            config.routes.get("/cached-queries", db::cached);
            config.routes.get("/session", session);
            config.routes.get("/hash", ctx -> HashHandler.handle(ctx, hashFile));
            config.routes.get("/json-comp", Main::jsonComp);
            config.routes.post("/upload", ctx -> ctx.contentType(TEXT).result(Upload.of(ctx.bodyAsBytes())));
            config.routes.get("/items", items::page);
            config.routes.post("/items", items::create);
            config.routes.get("/items/{id}", items::one);
            config.routes.put("/items/{id}", items::update);
            config.routes.delete("/items/{id}", items::delete);
            config.routes.ws("/ws", ws -> ws.onMessage(message -> message.send(message.message())));
        });
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            app.stop();
            pool.close();
        }));
        app.start();
    }

    record Message(String message) {
    }

    /** json-comp: ctx.json through Jackson; Javalin's compression (which sets no Vary) encodes it as asked. */
    private static void jsonComp(Context ctx) {
        String raw = ctx.queryParam("n");
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            ctx.status(HttpStatus.BAD_REQUEST).contentType(TEXT).result(reason);
            return;
        }
        ctx.header("Vary", "Accept-Encoding");
        ctx.json(JsonComp.items(Integer.parseInt(raw)));
    }
}
