package webshootout.undertow;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.undertow.server.HttpHandler;
import io.undertow.server.HttpServerExchange;
import io.undertow.server.handlers.Cookie;
import io.undertow.server.handlers.CookieImpl;
import io.undertow.util.Headers;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. Undertow core's
 * session manager (InMemorySessionManager) keeps sessions in the JVM, while the contract keeps the count in
 * PostgreSQL, so the row is read and written by the shared JDBC transaction and only the cookie is Undertow's.
 */
final class Sessions implements HttpHandler {
    private final JdbcSessions sessions;

    Sessions(DataSource pool, ObjectMapper mapper) {
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
    }

    @Override
    public void handleRequest(HttpServerExchange exchange) throws Exception {
        Cookie cookie = exchange.getRequestCookie(JdbcSessions.COOKIE);
        JdbcSessions.Visit visit = sessions.visit(cookie == null ? null : cookie.getValue());
        if (visit.newUid() != null) {
            exchange.setResponseCookie(new CookieImpl(JdbcSessions.COOKIE, visit.newUid()).setPath("/").setHttpOnly(true));
        }
        exchange.getResponseHeaders().put(Headers.CONTENT_TYPE, Main.TEXT);
        exchange.getResponseSender().send("Count is " + visit.count());
    }
}
