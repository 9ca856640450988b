package webshootout.netty;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.DefaultFileRegion;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.DefaultHttpResponse;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpChunkedInput;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.handler.codec.http.QueryStringDecoder;
import io.netty.handler.codec.http.cookie.Cookie;
import io.netty.handler.codec.http.cookie.DefaultCookie;
import io.netty.handler.codec.http.cookie.ServerCookieDecoder;
import io.netty.handler.codec.http.cookie.ServerCookieEncoder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.stream.ChunkedFile;
import io.netty.util.AsciiString;
import io.netty.util.AttributeKey;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import javax.sql.DataSource;
import webshootout.common.Env;
import webshootout.common.Hashing;
import webshootout.common.HttpDate;
import webshootout.common.JdbcSessions;
import webshootout.common.JdbcWorkloads;

/**
 * Every workload but websocket, routed by path. Answers built on the event loop when nothing waits (plaintext,
 * json, cached, static); JDBC and hash run on their executors and hand the answer back to the channel's event loop,
 * which writes it and starts the connection's next request (answers stay in request order under pipelining).
 */
@ChannelHandler.Sharable
final class App extends SimpleChannelInboundHandler<FullHttpRequest> {
    private static final AsciiString SERVER = AsciiString.cached("Netty");
    private static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");
    private static final AsciiString JSON = AsciiString.cached("application/json");
    private static final AsciiString HTML = AsciiString.cached("text/html; charset=utf-8");
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    private final JdbcWorkloads workloads;
    private final JdbcSessions sessions;
    private final Executor database;
    private final Executor hashing;
    private final Path hashFile;
    private final Path staticDir;
    private final ObjectMapper mapper = new ObjectMapper();
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache fortunes = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    App(Env env, JdbcWorkloads workloads, DataSource pool, Executor database, Executor hashing) {
        this.workloads = workloads;
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
        this.database = database;
        this.hashing = hashing;
        this.hashFile = Path.of(env.hashFile());
        this.staticDir = Path.of(env.staticDir()).toAbsolutePath().normalize();
    }

    /** An answer computed off the event loop. */
    private record Answer(HttpResponseStatus status, AsciiString type, byte[] body, String cookie) {
    }

    /** A request's work: it writes the answer, then runs done (on the event loop). */
    @FunctionalInterface
    private interface Step {
        void start(Runnable done) throws Exception;
    }

    /**
     * HTTP/1.1 answers a connection's requests in order. A pipelining client's next request may arrive while an
     * offloaded one is still running, so each connection's requests wait here, on its event loop, for the one before.
     */
    private static final class InOrder {
        final ArrayDeque<Step> waiting = new ArrayDeque<>();
        boolean busy;
    }

    private static final AttributeKey<InOrder> IN_ORDER = AttributeKey.valueOf("webshootout.inOrder");

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws Exception {
        Step step = step(ctx, request);
        InOrder order = ctx.channel().attr(IN_ORDER).setIfAbsent(new InOrder());
        if (order == null) {
            order = ctx.channel().attr(IN_ORDER).get();
        }
        if (order.busy) {
            order.waiting.add(step);
        } else {
            run(ctx, order, step);
        }
    }

    private void run(ChannelHandlerContext ctx, InOrder order, Step step) {
        order.busy = true;
        try {
            step.start(() -> {
                order.busy = false;
                Step next = order.waiting.poll();
                if (next != null && ctx.channel().isActive()) {
                    run(ctx, order, next);
                }
            });
        } catch (Exception e) {
            ctx.fireExceptionCaught(e);
        }
    }

    /** What the request asks for, read from it now (Netty releases it when channelRead0 returns). */
    private Step step(ChannelHandlerContext ctx, FullHttpRequest request) throws Exception {
        if (!request.decoderResult().isSuccess()) {
            return now(ctx, HttpResponseStatus.BAD_REQUEST, TEXT, "bad request".getBytes(StandardCharsets.UTF_8));
        }
        if (request.method() != HttpMethod.GET) {
            return now(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, new byte[0]);
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        switch (path) {
            case "/plaintext":
                return now(ctx, HttpResponseStatus.OK, TEXT, HELLO);
            case "/json":
                return done -> {
                    send(ctx, HttpResponseStatus.OK, JSON, mapper.writeValueAsBytes(Map.of("message", "Hello, World!")), null);
                    done.run();
                };
            case "/cached-queries": {
                String count = param(uri, "count");
                return done -> {
                    send(ctx, HttpResponseStatus.OK, JSON, mapper.writeValueAsBytes(workloads.cached(count)), null);
                    done.run();
                };
            }
            case "/db":
                return offload(ctx, database, () -> json(workloads.db()));
            case "/queries": {
                String count = param(uri, "queries");
                return offload(ctx, database, () -> json(workloads.queries(count)));
            }
            case "/updates": {
                String count = param(uri, "queries");
                return offload(ctx, database, () -> json(workloads.updates(count)));
            }
            case "/fortunes":
                return offload(ctx, database, this::fortunes);
            case "/session": {
                String uid = cookie(request.headers());
                return offload(ctx, database, () -> session(uid));
            }
            case "/hash": {
                String raw = param(uri, "n");
                String reason = Hashing.reason(raw);
                if (reason != null) {
                    return now(ctx, HttpResponseStatus.BAD_REQUEST, TEXT, reason.getBytes(StandardCharsets.UTF_8));
                }
                return offload(ctx, hashing, () -> new Answer(HttpResponseStatus.OK, TEXT,
                        Hashing.hex(hashFile, Integer.parseInt(raw)).getBytes(StandardCharsets.US_ASCII), null));
            }
            default:
                if (path.startsWith("/static/")) {
                    String name = path.substring("/static/".length());
                    return done -> {
                        file(ctx, name);
                        done.run();
                    };
                }
                return now(ctx, HttpResponseStatus.NOT_FOUND, TEXT, "not found".getBytes(StandardCharsets.UTF_8));
        }
    }

    private static Step now(ChannelHandlerContext ctx, HttpResponseStatus status, AsciiString type, byte[] body) {
        return done -> {
            send(ctx, status, type, body, null);
            done.run();
        };
    }

    private Answer json(Object value) throws Exception {
        return new Answer(HttpResponseStatus.OK, JSON, mapper.writeValueAsBytes(value), null);
    }

    private Answer fortunes() throws Exception {
        StringWriter html = new StringWriter(2048);
        fortunes.execute(html, Map.of("fortunes", workloads.fortunes()));
        return new Answer(HttpResponseStatus.OK, HTML, html.toString().getBytes(StandardCharsets.UTF_8), null);
    }

    private Answer session(String uid) throws Exception {
        JdbcSessions.Visit visit = sessions.visit(uid);
        String cookie = null;
        if (visit.newUid() != null) {
            DefaultCookie set = new DefaultCookie(JdbcSessions.COOKIE, visit.newUid());
            set.setPath("/");
            set.setHttpOnly(true);
            cookie = ServerCookieEncoder.STRICT.encode(set);
        }
        return new Answer(HttpResponseStatus.OK, TEXT,
                ("Count is " + visit.count()).getBytes(StandardCharsets.UTF_8), cookie);
    }

    /** Work that blocks, run on the executor; its answer is written, and the next request started, on the loop. */
    private static Step offload(ChannelHandlerContext ctx, Executor executor, Callable<Answer> work) {
        return done -> executor.execute(() -> {
            Answer computed;
            try {
                computed = work.call();
            } catch (Exception e) {
                e.printStackTrace();
                computed = new Answer(HttpResponseStatus.INTERNAL_SERVER_ERROR, TEXT,
                        "internal error".getBytes(StandardCharsets.UTF_8), null);
            }
            Answer answer = computed;
            ctx.executor().execute(() -> {
                send(ctx, answer.status(), answer.type(), answer.body(), answer.cookie());
                done.run();
            });
        });
    }

    /** Static files as Netty's own static-file server example sends them: a FileRegion (sendfile) in cleartext,
     *  a ChunkedFile through ChunkedWriteHandler under TLS. */
    private void file(ChannelHandlerContext ctx, String name) throws Exception {
        Path file = staticDir.resolve(name).normalize();
        if (!file.startsWith(staticDir) || !Files.isRegularFile(file)) {
            send(ctx, HttpResponseStatus.NOT_FOUND, TEXT, "not found".getBytes(StandardCharsets.UTF_8), null);
            return;
        }
        RandomAccessFile raf = new RandomAccessFile(file.toFile(), "r");
        long length = raf.length();
        HttpResponse response = new DefaultHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.OK);
        headers(response.headers(), name.endsWith(".html") ? AsciiString.cached("text/html")
                : AsciiString.cached("application/octet-stream"));
        HttpUtil.setContentLength(response, length);
        ctx.write(response);
        if (ctx.pipeline().get(SslHandler.class) == null) {
            ctx.write(new DefaultFileRegion(raf.getChannel(), 0, length));
            ctx.writeAndFlush(LastHttpContent.EMPTY_LAST_CONTENT);
        } else {
            ctx.writeAndFlush(new HttpChunkedInput(new ChunkedFile(raf, 0, length, 8192)));
        }
    }

    private static void send(ChannelHandlerContext ctx, HttpResponseStatus status, AsciiString type, byte[] body,
                             String cookie) {
        ByteBuf content = Unpooled.wrappedBuffer(body);
        FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, content);
        headers(response.headers(), type);
        HttpUtil.setContentLength(response, body.length);
        if (cookie != null) {
            response.headers().set(HttpHeaderNames.SET_COOKIE, cookie);
        }
        // HttpServerKeepAliveHandler adds Connection: close and closes when the request asked for it.
        ctx.writeAndFlush(response);
    }

    private static void headers(HttpHeaders headers, AsciiString type) {
        // Netty sets neither Server nor Date: Date is formatted at most once a second (common HttpDate).
        headers.set(HttpHeaderNames.SERVER, SERVER);
        headers.set(HttpHeaderNames.DATE, HttpDate.now());
        headers.set(HttpHeaderNames.CONTENT_TYPE, type);
    }

    private static String param(QueryStringDecoder uri, String name) {
        List<String> values = uri.parameters().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    private static String cookie(HttpHeaders headers) {
        String header = headers.get(HttpHeaderNames.COOKIE);
        if (header == null) {
            return null;
        }
        for (Cookie cookie : ServerCookieDecoder.STRICT.decode(header)) {
            if (JdbcSessions.COOKIE.equals(cookie.name())) {
                return cookie.value();
            }
        }
        return null;
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        ctx.close();
    }
}
