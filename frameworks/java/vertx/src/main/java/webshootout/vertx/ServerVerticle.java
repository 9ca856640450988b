package webshootout.vertx;

import io.vertx.core.Future;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.VerticleBase;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import io.vertx.ext.web.handler.BodyHandler;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import io.vertx.sqlclient.Pool;
import java.nio.file.Path;
import java.util.ArrayList;
import webshootout.common.Env;
import webshootout.common.Hashing;
import webshootout.common.HttpDate;
import webshootout.common.JsonComp;
import webshootout.common.Upload;
import webshootout.common.WorldCache;

/** One event loop's HTTP server: vertx-web's Router with every workload's route. */
final class ServerVerticle extends VerticleBase {
    static final String TEXT = "text/plain; charset=utf-8";

    private final Env env;
    private final HttpServerOptions options;
    private final Pool pool;
    private final WorldCache cache;
    private String date = HttpDate.now();

    ServerVerticle(Env env, HttpServerOptions options, Pool pool, WorldCache cache) {
        this.env = env;
        this.options = options;
        this.pool = pool;
        this.cache = cache;
    }

    @Override
    public Future<?> start() {
        // Vert.x sets neither Server nor Date: Date is formatted once a second on this verticle's loop.
        vertx.setPeriodic(1000, timer -> date = HttpDate.now());
        Path hashFile = Path.of(env.hashFile());
        DbHandlers db = new DbHandlers(vertx, pool, cache);
        Sessions sessions = new Sessions(pool);

        Router router = Router.router(vertx);
        router.route().handler(ctx -> {
            ctx.response().putHeader(HttpHeaders.SERVER, "Vert.x");
            // Dated when the headers go out, not when the request came in (a database wait in between).
            ctx.addHeadersEndHandler(end -> ctx.response().putHeader(HttpHeaders.DATE, date));
            ctx.next();
        });
        router.get("/plaintext").handler(ctx -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT)
                .end("Hello, World!"));
        router.get("/json").handler(ctx -> ctx.json(new io.vertx.core.json.JsonObject().put("message", "Hello, World!")));
        router.get("/db").handler(db::db);
        router.get("/queries").handler(db::queries);
        router.get("/updates").handler(db::updates);
        router.get("/fortunes").handler(db::fortunes);
        router.get("/cached-queries").handler(db::cached);
        router.get("/session").handler(sessions::handle);
        Items items = new Items(pool);
        router.get(Items.PATH).handler(items::page);
        router.get(Items.PATH + "/:id").handler(items::find);
        // The body as one buffer for the two routes that read one, capped like upload's.
        BodyHandler itemBody = BodyHandler.create(false).setBodyLimit(Upload.LIMIT);
        router.post(Items.PATH).handler(itemBody).handler(items::create);
        router.put(Items.PATH + "/:id").handler(itemBody).handler(items::update);
        router.delete(Items.PATH + "/:id").handler(items::delete);
        router.get("/hash").handler(ctx -> {
            String raw = ctx.request().getParam("n");
            String reason = Hashing.reason(raw);
            if (reason != null) {
                ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, TEXT).end(reason);
                return;
            }
            // File I/O and up to 100,000 digests: off the event loop, on Vert.x's worker pool.
            vertx.executeBlocking(() -> Hashing.hex(hashFile, Integer.parseInt(raw)))
                    .onSuccess(hex -> ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT).end(hex))
                    .onFailure(ctx::fail);
        });
        router.get("/json-comp").handler(ServerVerticle::jsonComp);
        // vertx-web's BodyHandler reads the whole body into a buffer, capped by its documented setBodyLimit: 413 for a
        // Content-Length over it, and for a chunked body once it passes it. No file uploads (nothing written to disk).
        router.post("/upload").handler(BodyHandler.create(false).setBodyLimit(Upload.LIMIT))
                .handler(ctx -> {
                    // An empty body leaves no buffer at all.
                    Buffer body = ctx.body().buffer();
                    ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, TEXT)
                            .end(Upload.of(body == null ? new byte[0] : body.getBytes()));
                });
        router.route("/static/*").handler(StaticHandler.create(FileSystemAccess.ROOT, env.staticDir()));
        router.get("/ws").handler(ctx -> ctx.request().toWebSocket()
                .onSuccess(ws -> ws.textMessageHandler(ws::writeTextMessage))
                .onFailure(ctx::fail));

        return vertx.createHttpServer(options)
                .requestHandler(router)
                .listen();
    }

    /**
     * json-comp: the array as Vert.x's own JSON types, compressed by the HTTP server (HttpServerOptions
     * setCompressionSupported, Main). That compressor (Netty's) sets no Vary, so the route names Accept-Encoding.
     */
    private static void jsonComp(RoutingContext ctx) {
        String raw = ctx.request().getParam("n");
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            ctx.response().setStatusCode(400).putHeader(HttpHeaders.CONTENT_TYPE, TEXT).end(reason);
            return;
        }
        int n = Integer.parseInt(raw);
        JsonArray items = new JsonArray(new ArrayList<>(n));
        for (int i = 1; i <= n; i++) {
            items.add(new JsonObject().put("id", i).put("message", JsonComp.MESSAGE));
        }
        ctx.response().putHeader(HttpHeaders.VARY, HttpHeaders.ACCEPT_ENCODING);
        ctx.json(items);
    }
}
