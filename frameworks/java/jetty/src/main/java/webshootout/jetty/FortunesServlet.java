package webshootout.jetty;

import com.github.mustachejava.DefaultMustacheFactory;
import com.github.mustachejava.Mustache;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import webshootout.common.Fortune;
import webshootout.common.JdbcWorkloads;

/** fortunes: every row of fortune plus one, sorted, through Mustache.java's template and HTML escaping. */
final class FortunesServlet extends HttpServlet {
    private final JdbcWorkloads workloads;
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private final Mustache template = new DefaultMustacheFactory("templates").compile("fortunes.mustache");

    FortunesServlet(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response)
            throws IOException, ServletException {
        List<Fortune> rows;
        try {
            rows = workloads.fortunes();
        } catch (SQLException e) {
            throw new ServletException("reading fortune", e);
        }
        StringWriter html = new StringWriter(2048);
        template.execute(html, Map.of("fortunes", rows));
        byte[] body = html.toString().getBytes(StandardCharsets.UTF_8);
        response.setContentType("text/html;charset=utf-8");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
