package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;
import webshootout.common.JdbcWorlds;
import webshootout.common.TechEmpower;
import webshootout.common.World;

/** db: one row of `world`, by an id drawn for this request, queried for this request. */
final class DbServlet extends HttpServlet {
    private final DataSource pool;
    private final ObjectMapper mapper;

    DbServlet(DataSource pool, ObjectMapper mapper) {
        this.pool = pool;
        this.mapper = mapper;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        int id = TechEmpower.randomId();
        World world;
        try (Connection connection = pool.getConnection()) {
            world = JdbcWorlds.one(connection, id);
        } catch (SQLException e) {
            throw new ServletException("reading world row " + id, e);
        }
        byte[] body = mapper.writeValueAsBytes(world);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
