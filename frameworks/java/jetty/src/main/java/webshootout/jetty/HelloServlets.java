package webshootout.jetty;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Map;

/** The two workloads without I/O: plaintext and json. */
final class HelloServlets {
    private static final byte[] HELLO = "Hello, World!".getBytes(StandardCharsets.UTF_8);

    private HelloServlets() {
    }

    static final class Plaintext extends HttpServlet {
        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            write(response);
        }

        /** The answer, also async's once its wait is over. */
        static void write(HttpServletResponse response) throws IOException {
            response.setContentType(Main.TEXT);
            response.setContentLength(HELLO.length);
            response.getOutputStream().write(HELLO);
        }
    }

    static final class Json extends HttpServlet {
        private final ObjectMapper mapper;

        Json(ObjectMapper mapper) {
            this.mapper = mapper;
        }

        @Override
        protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
            byte[] body = mapper.writeValueAsBytes(Map.of("message", "Hello, World!"));
            response.setContentType("application/json");
            response.setContentLength(body.length);
            response.getOutputStream().write(body);
        }
    }
}
