package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.concurrent.ThreadLocalRandom;
import javax.sql.DataSource;

/** db: one row of `world`, by an id drawn for this request, queried for this request. */
final class DbServlet extends HttpServlet {
    record World(int id, int randomNumber) {
    }

    private final DataSource pool;
    private final ObjectMapper mapper;

    DbServlet(DataSource pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        int id = ThreadLocalRandom.current().nextInt(1, 10_001);
        World world;
        try (Connection connection = pool.getConnection();
             PreparedStatement select = connection.prepareStatement(
                     "SELECT id, randomnumber FROM world WHERE id = ?")) {
            select.setInt(1, id);
            try (ResultSet row = select.executeQuery()) {
                if (!row.next()) {
                    throw new ServletException("world has no row with id " + id);
                }
                world = new World(row.getInt(1), row.getInt(2));
            }
        } catch (SQLException e) {
            throw new ServletException("reading world row " + id, e);
        }
        byte[] body = mapper.writeValueAsBytes(world);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
