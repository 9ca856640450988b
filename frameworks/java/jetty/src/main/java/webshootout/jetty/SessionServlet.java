package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. The servlet
 * HttpSession is not used: it lives in Jetty's memory, while the contract keeps the count in PostgreSQL.
 */
final class SessionServlet extends HttpServlet {
    private final JdbcSessions sessions;

    SessionServlet(DataSource pool, ObjectMapper mapper) {
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        JdbcSessions.Visit visit;
        try {
            visit = sessions.visit(cookie(request));
        } catch (Exception e) {
            throw new ServletException("updating the session counter", e);
        }
        if (visit.newUid() != null) {
            Cookie cookie = new Cookie(JdbcSessions.COOKIE, visit.newUid());
            cookie.setPath("/");
            cookie.setHttpOnly(true);
            response.addCookie(cookie);
        }
        response.setContentType(Main.TEXT);
        response.getWriter().print("Count is " + visit.count());
    }

    private static String cookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (JdbcSessions.COOKIE.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }
}
