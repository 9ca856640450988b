package webshootout.micronaut;

import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.CookieValue;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.cookie.Cookie;
import io.micronaut.http.cookie.SameSite;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.serde.ObjectMapper;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. Micronaut
 * Session keeps sessions in memory, while the contract keeps the count in PostgreSQL.
 */
@Controller
public class SessionController {
    private final JdbcSessions sessions;

    SessionController(DataSource pool, ObjectMapper mapper) {
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
    }

    @Get("/session")
    @Produces(Application.TEXT)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> session(@CookieValue(JdbcSessions.COOKIE) @Nullable String uid) throws Exception {
        JdbcSessions.Visit visit = sessions.visit(uid);
        HttpResponse<String> response = HttpResponse.ok("Count is " + visit.count());
        if (visit.newUid() != null) {
            response = HttpResponse.ok("Count is " + visit.count())
                    .cookie(Cookie.of(JdbcSessions.COOKIE, visit.newUid()).path("/").httpOnly(true)
                            .sameSite(SameSite.Lax));
        }
        return response;
    }
}
