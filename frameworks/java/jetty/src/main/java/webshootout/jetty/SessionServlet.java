package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.Cookie;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import javax.sql.DataSource;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. The servlet
 * HttpSession is not used: it lives in Jetty's memory, while the contract keeps the count in PostgreSQL.
 */
final class SessionServlet extends HttpServlet {
    private static final String COOKIE = "uid";

    record Data(int count) {
    }

    private final DataSource pool;
    private final ObjectMapper mapper;
    private final SecureRandom random = new SecureRandom();

    SessionServlet(DataSource pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        String uid = cookie(request);
        int count;
        String fresh = null;
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Integer known = uid == null ? null : lockedCount(connection, uid);
                if (known == null) {
                    fresh = newUid();
                    count = 1;
                    write(connection, "INSERT INTO usersessions (data, uid) VALUES (?, ?)", fresh, count);
                } else {
                    count = known + 1;
                    write(connection, "UPDATE usersessions SET data = ? WHERE uid = ?", uid, count);
                }
                connection.commit();
            } catch (SQLException | IOException e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new ServletException("updating the session counter", e);
        }
        if (fresh != null) {
            Cookie cookie = new Cookie(COOKIE, fresh);
            cookie.setPath("/");
            cookie.setHttpOnly(true);
            response.addCookie(cookie);
        }
        response.setContentType(Main.TEXT);
        response.getWriter().print("Count is " + count);
    }

    private static String cookie(HttpServletRequest request) {
        Cookie[] cookies = request.getCookies();
        if (cookies != null) {
            for (Cookie cookie : cookies) {
                if (COOKIE.equals(cookie.getName())) {
                    return cookie.getValue();
                }
            }
        }
        return null;
    }

    /** The visitor's count, its row locked until commit; null for an unknown visitor. */
    private Integer lockedCount(Connection connection, String uid) throws SQLException, IOException {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT data FROM usersessions WHERE uid = ? FOR UPDATE")) {
            select.setString(1, uid);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? mapper.readValue(row.getString(1), Data.class).count() : null;
            }
        }
    }

    private void write(Connection connection, String sql, String uid, int count) throws SQLException, IOException {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, mapper.writeValueAsString(new Data(count)));
            statement.setString(2, uid);
            statement.executeUpdate();
        }
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
