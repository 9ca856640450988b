package webshootout.jetty;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Path;
import webshootout.common.Hashing;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
final class HashServlet extends HttpServlet {
    private final Path hashFile;

    HashServlet(Path hashFile) {
        this.hashFile = hashFile;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType(Main.TEXT);
        String raw = request.getParameter("n");
        String reason = Hashing.reason(raw);
        if (reason != null) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.getWriter().print(reason);
            return;
        }
        response.getWriter().print(Hashing.hex(hashFile, Integer.parseInt(raw)));
    }
}
