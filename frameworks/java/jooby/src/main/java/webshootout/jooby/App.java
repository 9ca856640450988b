package webshootout.jooby;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.jooby.Context;
import io.jooby.Cookie;
import io.jooby.ExecutionMode;
import io.jooby.Jooby;
import io.jooby.MediaType;
import io.jooby.ModelAndView;
import io.jooby.ServerOptions;
import io.jooby.SslOptions;
import io.jooby.StatusCode;
import io.jooby.handlebars.HandlebarsModule;
import io.jooby.jackson.JacksonModule;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Map;
import webshootout.common.Env;
import webshootout.common.Hashing;
import webshootout.common.JdbcSessions;
import webshootout.common.JdbcWorkloads;
import webshootout.common.TlsFiles;

/**
 * Jooby 3 on its Netty server in EVENT_LOOP mode: handlers that never wait run on the event loop, and the routes that
 * block (JDBC, the hash file) sit in a dispatch group, which Jooby runs on its worker executor.
 */
public final class App extends Jooby {
    private static final String TEXT = "text/plain; charset=utf-8";

    public record Message(String message) {
    }

    App(Env env, HikariDataSource pool) throws SQLException {
        ServerOptions server = new ServerOptions()
                // One event loop per CPU, Jooby's 8 worker threads per CPU, with WORKERS as the CPU count.
                .setIoThreads(env.workers())
                .setWorkerThreads(8 * env.workers());
        server.setHost(env.host());
        TlsFiles tls = TlsFiles.fromEnv();
        if (tls == null) {
            server.setPort(env.port());
        } else {
            // TLS only on PORT: Jooby's secure port, its cleartext port off.
            server.setSecurePort(env.port()).setHttpsOnly(true).setSsl(SslOptions.x509(tls.cert(), tls.key()));
        }
        setServerOptions(server);

        install(new JacksonModule());
        install(new HandlebarsModule());
        // Jooby sends Date (its default headers) and "Server: netty"; named after the framework instead.
        use(next -> ctx -> next.apply(ctx.setResponseHeader("Server", "Jooby")));

        JdbcWorkloads workloads = new JdbcWorkloads(pool);
        ObjectMapper mapper = require(ObjectMapper.class);
        JdbcSessions sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
        Path hashFile = Path.of(env.hashFile());

        get("/plaintext", ctx -> ctx.setResponseType(TEXT).send("Hello, World!"));
        get("/json", ctx -> ctx.setResponseType(MediaType.json).render(new Message("Hello, World!")));
        get("/cached-queries", ctx -> ctx.setResponseType(MediaType.json).render(workloads.cached(param(ctx, "count"))));
        assets("/static/*", Path.of(env.staticDir()));
        ws("/ws", (ctx, ws) -> ws.onMessage((socket, message) -> socket.send(message.value())));

        dispatch(() -> {
            get("/db", ctx -> ctx.setResponseType(MediaType.json).render(workloads.db()));
            get("/queries", ctx -> ctx.setResponseType(MediaType.json).render(workloads.queries(param(ctx, "queries"))));
            get("/updates", ctx -> ctx.setResponseType(MediaType.json).render(workloads.updates(param(ctx, "queries"))));
            get("/fortunes", ctx -> ctx.setResponseType(MediaType.html)
                    .render(new ModelAndView("fortunes.hbs", Map.of("fortunes", workloads.fortunes()))));
            get("/session", ctx -> {
                JdbcSessions.Visit visit = sessions.visit(ctx.cookie(JdbcSessions.COOKIE).valueOrNull());
                if (visit.newUid() != null) {
                    ctx.setResponseCookie(new Cookie(JdbcSessions.COOKIE, visit.newUid()).setPath("/").setHttpOnly(true));
                }
                return ctx.setResponseType(TEXT).send("Count is " + visit.count());
            });
            get("/hash", ctx -> {
                ctx.setResponseType(TEXT);
                String raw = param(ctx, "n");
                String reason = Hashing.reason(raw);
                if (reason != null) {
                    return ctx.setResponseCode(StatusCode.BAD_REQUEST).send(reason);
                }
                return ctx.send(Hashing.hex(hashFile, Integer.parseInt(raw)));
            });
        });
        onStop(pool::close);
    }

    private static String param(Context ctx, String name) {
        return ctx.query(name).valueOrNull();
    }

    public static void main(String[] args) {
        Env env = Env.fromSystem();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        runApp(args, ExecutionMode.EVENT_LOOP, () -> {
            try {
                return new App(env, pool);
            } catch (SQLException e) {
                throw new IllegalStateException("reading world for the cache", e);
            }
        });
    }
}
