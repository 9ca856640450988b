package webshootout.undertow;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.undertow.Handlers;
import io.undertow.Undertow;
import io.undertow.UndertowOptions;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.RequestTooBigException;
import io.undertow.server.handlers.BlockingHandler;
import io.undertow.server.handlers.encoding.ContentEncodingRepository;
import io.undertow.server.handlers.encoding.DeflateEncodingProvider;
import io.undertow.server.handlers.encoding.EncodingHandler;
import io.undertow.server.handlers.encoding.GzipEncodingProvider;
import io.undertow.server.handlers.resource.PathResourceManager;
import io.undertow.util.Headers;
import io.undertow.util.StatusCodes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Deque;
import java.util.Map;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import webshootout.common.Env;
import webshootout.common.Hashing;
import webshootout.common.JdbcWorkloads;
import webshootout.common.JsonComp;
import webshootout.common.PemKeyStore;
import webshootout.common.Upload;

/**
 * Undertow core on its own XNIO server: a PathHandler in front of a RoutingHandler, non-blocking handlers on the
 * IO threads for the work that never waits, BlockingHandler (dispatch to XNIO's worker pool) for JDBC and hash.
 */
public final class Main {
    static final String TEXT = "text/plain; charset=utf-8";
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    private Main() {
    }

    public static void main(String[] args) throws Exception {
        Env env = Env.fromSystem();
        PemKeyStore tls = PemKeyStore.fromEnv();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        JdbcWorkloads workloads = new JdbcWorkloads(pool);
        ObjectMapper mapper = new ObjectMapper();
        Path hashFile = Path.of(env.hashFile());
        Fortunes fortunes = new Fortunes(workloads);
        Sessions sessions = new Sessions(pool, mapper);

        HttpHandler routes = Handlers.routing()
                .get("/plaintext", exchange -> {
                    exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, TEXT);
                    exchange.getResponseSender().send(ByteBuffer.wrap(HELLO));
                })
                .get("/json", exchange -> json(exchange, mapper.writeValueAsBytes(Map.of("message", "Hello, World!"))))
                .get("/cached-queries", exchange -> json(exchange,
                        mapper.writeValueAsBytes(workloads.cached(param(exchange, "count")))))
                .get("/json-comp", exchange -> jsonComp(exchange, mapper))
                .post("/upload", Main::upload)
                // JDBC and the hash file read block: BlockingHandler moves them to XNIO's worker threads.
                .get("/db", new BlockingHandler(exchange -> json(exchange, mapper.writeValueAsBytes(workloads.db()))))
                .get("/queries", new BlockingHandler(exchange -> json(exchange,
                        mapper.writeValueAsBytes(workloads.queries(param(exchange, "queries"))))))
                .get("/updates", new BlockingHandler(exchange -> json(exchange,
                        mapper.writeValueAsBytes(workloads.updates(param(exchange, "queries"))))))
                .get("/fortunes", new BlockingHandler(fortunes))
                .get("/session", new BlockingHandler(sessions))
                .get("/hash", new BlockingHandler(exchange -> hash(exchange, hashFile)));

        HttpHandler root = Handlers.path(routes)
                .addPrefixPath("/static", Handlers.resource(new PathResourceManager(Path.of(env.staticDir())))
                        .setDirectoryListingEnabled(false))
                .addExactPath("/ws", Handlers.websocket(new Echo()));

        // Undertow sends Date itself (UndertowOptions.ALWAYS_SET_DATE, on by default, cached per second) but no
        // Server header: the contract's fallback, its name.
        // Response compression: Undertow's EncodingHandler with the encodings its own "compress" handler registers
        // (EncodingHandler.Builder): gzip (priority 100) and deflate (10) at the JDK's default level, no size predicate, so
        // any answer to a request that accepts them; none for br, which gets identity. In front of every route.
        // It sets no Vary: json-comp names Accept-Encoding itself.
        HttpHandler compressed = new EncodingHandler(root, new ContentEncodingRepository()
                .addEncodingHandler("gzip", new GzipEncodingProvider(), 100)
                .addEncodingHandler("deflate", new DeflateEncodingProvider(), 10));
        HttpHandler withServer = exchange -> {
            exchange.getResponseHeaders().put(Headers.SERVER, "Undertow");
            compressed.handleRequest(exchange);
        };

        Undertow.Builder builder = Undertow.builder()
                // Undertow's own sizing with WORKERS as the CPU count: one IO thread per core (its default is
                // max(CPUs, 2)) and 8 worker threads per IO thread (its default ioThreads * 8).
                .setIoThreads(env.workers())
                .setWorkerThreads(8 * env.workers())
                // Request bodies: Undertow's documented MAX_ENTITY_SIZE (unlimited unless set), which fails the read of
                // a larger body (its Content-Length, or a chunked body once it passes it) and ends the connection.
                .setServerOption(UndertowOptions.MAX_ENTITY_SIZE, (long) Upload.LIMIT)
                .setHandler(withServer);
        if (tls == null) {
            // ENABLE_HTTP2 on a cleartext listener: h2c by prior knowledge (and by Upgrade) beside HTTP/1.1.
            builder.setServerOption(UndertowOptions.ENABLE_HTTP2, true).addHttpListener(env.port(), env.host());
        } else {
            // TLS only on PORT; ALPN (the JDK's) offers h2 and http/1.1.
            builder.setServerOption(UndertowOptions.ENABLE_HTTP2, true)
                    .addHttpsListener(env.port(), env.host(), sslContext(tls));
        }
        Undertow server = builder.build();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            pool.close();
        }));
        server.start();
    }

    static String param(HttpServerExchange exchange, String name) {
        Deque<String> values = exchange.getQueryParameters().get(name);
        return values == null ? null : values.peekFirst();
    }

    static void json(HttpServerExchange exchange, byte[] body) {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, "application/json");
        exchange.getResponseSender().send(ByteBuffer.wrap(body));
    }

    /** json-comp: Jackson's bytes, like json, on the IO thread (no I/O to wait for). */
    private static void jsonComp(HttpServerExchange exchange, ObjectMapper mapper) throws Exception {
        String raw = param(exchange, "n");
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            exchange.setStatusCode(StatusCodes.BAD_REQUEST);
            exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, TEXT);
            exchange.getResponseSender().send(reason);
            return;
        }
        exchange.getResponseHeaders().put(Headers.VARY, Headers.ACCEPT_ENCODING_STRING);
        json(exchange, mapper.writeValueAsBytes(JsonComp.items(Integer.parseInt(raw))));
    }

    /**
     * upload: the body through Undertow's Receiver as it arrives (receivePartialBytes, non-blocking on the IO
     * thread), each piece into SHA-256. A body over MAX_ENTITY_SIZE fails the read: 413, and the connection closes.
     */
    private static void upload(HttpServerExchange exchange) {
        Upload upload = new Upload();
        exchange.getRequestReceiver().receivePartialBytes((ex, piece, last) -> {
            upload.update(piece);
            if (last) {
                ex.getResponseHeaders().put(Headers.CONTENT_TYPE, TEXT);
                ex.getResponseSender().send(upload.answer());
            }
        }, (ex, failure) -> {
            if (failure instanceof RequestTooBigException && !ex.isResponseStarted()) {
                ex.setStatusCode(StatusCodes.REQUEST_ENTITY_TOO_LARGE);
                ex.setPersistent(false);
                ex.endExchange();
            } else {
                ex.setStatusCode(StatusCodes.INTERNAL_SERVER_ERROR);
                ex.endExchange();
            }
        });
    }

    private static void hash(HttpServerExchange exchange, Path hashFile) throws Exception {
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, TEXT);
        String raw = param(exchange, "n");
        String reason = Hashing.reason(raw);
        if (reason != null) {
            exchange.setStatusCode(StatusCodes.BAD_REQUEST);
            exchange.getResponseSender().send(reason);
            return;
        }
        exchange.getResponseSender().send(Hashing.hex(hashFile, Integer.parseInt(raw)));
    }

    private static SSLContext sslContext(PemKeyStore tls) throws Exception {
        KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        keys.init(tls.keyStore(), tls.password().toCharArray());
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(keys.getKeyManagers(), null, null);
        return context;
    }
}
