package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import webshootout.common.JsonComp;

/**
 * json-comp: the array of n objects by Jackson, written plain; the GzipHandler around the whole context (Main)
 * compresses it as the request's Accept-Encoding asks.
 */
final class JsonCompServlet extends HttpServlet {
    private final ObjectMapper mapper;

    JsonCompServlet(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        String raw = request.getParameter("n");
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.setContentType(Main.TEXT);
            response.getWriter().print(reason);
            return;
        }
        byte[] body = mapper.writeValueAsBytes(JsonComp.items(Integer.parseInt(raw)));
        response.setContentType("application/json");
        response.setContentLength(body.length);
        response.getOutputStream().write(body);
    }
}
