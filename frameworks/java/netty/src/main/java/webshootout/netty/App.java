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
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * json, cached, static); JDBC and hash run on their executors and write back through the channel, which Netty
 * hands to the channel's event loop.
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

    @Override
    protected void channelRead0(ChannelHandlerContext ctx, FullHttpRequest request) throws Exception {
        if (!request.decoderResult().isSuccess()) {
            send(ctx, HttpResponseStatus.BAD_REQUEST, TEXT, "bad request".getBytes(StandardCharsets.UTF_8), null);
            return;
        }
        if (request.method() != HttpMethod.GET) {
            send(ctx, HttpResponseStatus.METHOD_NOT_ALLOWED, TEXT, new byte[0], null);
            return;
        }
        QueryStringDecoder uri = new QueryStringDecoder(request.uri());
        String path = uri.path();
        switch (path) {
            case "/plaintext" -> send(ctx, HttpResponseStatus.OK, TEXT, HELLO, null);
            case "/json" -> send(ctx, HttpResponseStatus.OK, JSON,
                    mapper.writeValueAsBytes(Map.of("message", "Hello, World!")), null);
            case "/cached-queries" -> send(ctx, HttpResponseStatus.OK, JSON,
                    mapper.writeValueAsBytes(workloads.cached(param(uri, "count"))), null);
            case "/db" -> offload(ctx, database, () -> json(workloads.db()));
            case "/queries" -> offload(ctx, database, () -> json(workloads.queries(param(uri, "queries"))));
            case "/updates" -> offload(ctx, database, () -> json(workloads.updates(param(uri, "queries"))));
            case "/fortunes" -> offload(ctx, database, this::fortunes);
            case "/session" -> {
                String uid = cookie(request.headers());
                offload(ctx, database, () -> session(uid));
            }
            case "/hash" -> {
                String raw = param(uri, "n");
                String reason = Hashing.reason(raw);
                if (reason != null) {
                    send(ctx, HttpResponseStatus.BAD_REQUEST, TEXT, reason.getBytes(StandardCharsets.UTF_8), null);
                } else {
                    offload(ctx, hashing, () -> new Answer(HttpResponseStatus.OK, TEXT,
                            Hashing.hex(hashFile, Integer.parseInt(raw)).getBytes(StandardCharsets.US_ASCII), null));
                }
            }
            default -> {
                if (path.startsWith("/static/")) {
                    file(ctx, path.substring("/static/".length()));
                } else {
                    send(ctx, HttpResponseStatus.NOT_FOUND, TEXT, "not found".getBytes(StandardCharsets.UTF_8), null);
                }
            }
        }
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

    private void offload(ChannelHandlerContext ctx, Executor executor, Callable<Answer> work) {
        executor.execute(() -> {
            Answer answer;
            try {
                answer = work.call();
            } catch (Exception e) {
                e.printStackTrace();
                answer = new Answer(HttpResponseStatus.INTERNAL_SERVER_ERROR, TEXT,
                        "internal error".getBytes(StandardCharsets.UTF_8), null);
            }
            send(ctx, answer.status(), answer.type(), answer.body(), answer.cookie());
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
