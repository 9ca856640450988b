package webshootout.armeria;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import com.linecorp.armeria.common.Cookie;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.annotation.Blocking;
import com.linecorp.armeria.server.annotation.Default;
import com.linecorp.armeria.server.annotation.Get;
import com.linecorp.armeria.server.annotation.Param;
import com.linecorp.armeria.server.annotation.ProducesJson;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import webshootout.common.Hashing;
import webshootout.common.JdbcSessions;
import webshootout.common.JdbcWorkloads;
import webshootout.common.World;

/**
 * The workloads as one annotated service. JSON by @ProducesJson (Armeria's Jackson response converter); the
 * methods that block (JDBC, the hash file) are @Blocking, run on Armeria's blocking task executor instead of the
 * event loop.
 */
public final class Workloads {
    private final JdbcWorkloads workloads;
    private final JdbcSessions sessions;
    private final Path hashFile;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache fortunes = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    Workloads(JdbcWorkloads workloads, DataSource pool, Path hashFile) {
        this.workloads = workloads;
        this.hashFile = hashFile;
        ObjectMapper mapper = new ObjectMapper();
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
    }

    public record Message(String message) {
    }

    @Get("/plaintext")
    public HttpResponse plaintext() {
        return HttpResponse.of(HttpStatus.OK, MediaType.PLAIN_TEXT_UTF_8, "Hello, World!");
    }

    @Get("/json")
    @ProducesJson
    public Message json() {
        return new Message("Hello, World!");
    }

    @Get("/db")
    @Blocking
    @ProducesJson
    public World db() throws Exception {
        return workloads.db();
    }

    @Get("/queries")
    @Blocking
    @ProducesJson
    public List<World> queries(@Param("queries") @Default("") String queries) throws Exception {
        return workloads.queries(queries);
    }

    @Get("/updates")
    @Blocking
    @ProducesJson
    public List<World> updates(@Param("queries") @Default("") String queries) throws Exception {
        return workloads.updates(queries);
    }

    @Get("/cached-queries")
    @ProducesJson
    public List<World> cached(@Param("count") @Default("") String count) {
        return workloads.cached(count);
    }

    @Get("/fortunes")
    @Blocking
    public HttpResponse fortunes() throws Exception {
        StringWriter html = new StringWriter(2048);
        fortunes.execute(html, Map.of("fortunes", workloads.fortunes()));
        return HttpResponse.of(HttpStatus.OK, MediaType.HTML_UTF_8, html.toString());
    }

    @Get("/session")
    @Blocking
    public HttpResponse session(ServiceRequestContext ctx) throws Exception {
        String uid = null;
        for (Cookie cookie : ctx.request().headers().cookies()) {
            if (JdbcSessions.COOKIE.equals(cookie.name())) {
                uid = cookie.value();
            }
        }
        JdbcSessions.Visit visit = sessions.visit(uid);
        var headers = ResponseHeaders.builder(HttpStatus.OK).contentType(MediaType.PLAIN_TEXT_UTF_8);
        if (visit.newUid() != null) {
            headers.cookie(Cookie.builder(JdbcSessions.COOKIE, visit.newUid()).path("/").httpOnly(true).build());
        }
        return HttpResponse.of(headers.build(), HttpData.ofUtf8("Count is " + visit.count()));
    }

    @Get("/hash")
    @Blocking
    public HttpResponse hash(@Param("n") @Default("") String n) throws Exception {
        String raw = n.isEmpty() ? null : n;
        String reason = Hashing.reason(raw);
        if (reason != null) {
            return HttpResponse.of(HttpStatus.BAD_REQUEST, MediaType.PLAIN_TEXT_UTF_8, reason);
        }
        return HttpResponse.of(HttpStatus.OK, MediaType.PLAIN_TEXT_UTF_8, Hashing.hex(hashFile, Integer.parseInt(raw)));
    }
}
