package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import webshootout.common.JdbcWorlds;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** TechEmpower's queries, updates and cached: arrays of world rows as JSON. */
final class WorldServlets {
    private WorldServlets() {
    }

    static void json(HttpServletResponse response, ObjectMapper mapper, Object value) throws IOException {
        byte[] body = mapper.writeValueAsBytes(value);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }

    /** queries (?queries=N rows, a SELECT each) and, with update set, updates (then an UPDATE each). */
    static final class Queries extends HttpServlet {
        private final DataSource pool;
        private final ObjectMapper mapper;
        private final boolean update;

        Queries(DataSource pool, ObjectMapper mapper, boolean update) {
            this.pool = pool;
            this.mapper = mapper;
            this.update = update;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response)
                throws IOException, ServletException {
            int[] ids = TechEmpower.randomIds(TechEmpower.count(request.getParameter("queries")));
            List<World> rows;
            try (Connection connection = pool.getConnection()) {
                rows = JdbcWorlds.read(connection, ids);
                if (update) {
                    rows = TechEmpower.renumbered(rows);
                    JdbcWorlds.write(connection, rows);
                }
            } catch (SQLException e) {
                throw new ServletException("reading or writing world rows", e);
            }
            json(response, mapper, rows);
        }
    }

    static final class Cached extends HttpServlet {
        private final WorldCache cache;
        private final ObjectMapper mapper;

        Cached(WorldCache cache, ObjectMapper mapper) {
            this.cache = cache;
            this.mapper = mapper;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            json(response, mapper, cache.random(TechEmpower.count(request.getParameter("count"))));
        }
    }
}
