package webshootout.javalin;

import io.javalin.http.Context;
import io.javalin.http.Cookie;
import io.javalin.http.Handler;
import io.javalin.http.SameSite;
import io.javalin.json.JavalinJackson;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. Javalin's
 * sessions are Jetty's in-memory HttpSession, while the contract keeps the count in PostgreSQL.
 */
final class SessionHandler implements Handler {
    private final JdbcSessions sessions;

    SessionHandler(DataSource pool) {
        JavalinJackson json = new JavalinJackson();
        this.sessions = new JdbcSessions(pool, data -> json.fromJsonString(data, JdbcSessions.Data.class),
                data -> json.toJsonString(data, JdbcSessions.Data.class));
    }

    @Override
    public void handle(Context ctx) throws Exception {
        JdbcSessions.Visit visit = sessions.visit(ctx.cookie(JdbcSessions.COOKIE));
        if (visit.newUid() != null) {
            Cookie cookie = new Cookie(JdbcSessions.COOKIE, visit.newUid());
            cookie.setHttpOnly(true);
            cookie.setSameSite(SameSite.LAX);
            ctx.cookie(cookie);
        }
        ctx.contentType(Main.TEXT).result("Count is " + visit.count());
    }
}
