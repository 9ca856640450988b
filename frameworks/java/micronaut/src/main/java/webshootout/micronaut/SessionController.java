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
import io.micronaut.serde.annotation.Serdeable;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. Micronaut
 * Session keeps sessions in memory, while the contract keeps the count in PostgreSQL.
 */
@Controller
public class SessionController {
    private static final String COOKIE = "uid";

    @Serdeable
    record Data(int count) {
    }

    private final JdbcSessions sessions;

    SessionController(DataSource pool, ObjectMapper mapper) {
        this.sessions = new JdbcSessions(pool, new JdbcSessions.Codec() {
            @Override
            public int count(String data) throws Exception {
                return mapper.readValue(data, Data.class).count();
            }

            @Override
            public String data(int count) throws Exception {
                return mapper.writeValueAsString(new Data(count));
            }
        });
    }

    @Get("/session")
    @Produces(Application.TEXT)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> session(@CookieValue(COOKIE) @Nullable String uid) throws Exception {
        JdbcSessions.Visit visit = sessions.visit(uid);
        HttpResponse<String> response = HttpResponse.ok("Count is " + visit.count());
        if (visit.newUid() != null) {
            response = HttpResponse.ok("Count is " + visit.count())
                    .cookie(Cookie.of(COOKIE, visit.newUid()).path("/").httpOnly(true).sameSite(SameSite.Lax));
        }
        return response;
    }
}
