package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.sql.SQLException;

/** db, queries, updates and cached: what one of the shared JDBC workloads answers, as JSON by Jackson. */
final class WorldServlet extends HttpServlet {
    /** The workload, given the request for its count parameter. */
    @FunctionalInterface
    interface Workload {
        Object answer(HttpServletRequest request) throws SQLException;
    }

    private final ObjectMapper mapper;
    private final Workload workload;

    WorldServlet(ObjectMapper mapper, Workload workload) {
        this.mapper = mapper;
        this.workload = workload;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        Object answer;
        try {
            answer = workload.answer(request);
        } catch (SQLException e) {
            throw new ServletException("reading or writing world rows", e);
        }
        byte[] body = mapper.writeValueAsBytes(answer);
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
