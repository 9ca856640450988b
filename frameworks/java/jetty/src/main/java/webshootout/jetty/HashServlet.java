package webshootout.jetty;

import jakarta.servlet.http.HttpServlet;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
final class HashServlet extends HttpServlet {
    static final int MAX_N = 100_000;

    private final Path hashFile;

    HashServlet(Path hashFile) {
        this.hashFile = hashFile;
    }

    @Override
    protected void doGet(HttpServletRequest request, HttpServletResponse response) throws IOException {
        response.setContentType(Main.TEXT);
        String raw = request.getParameter("n");
        String reason = reason(raw);
        if (reason != null) {
            response.setStatus(HttpServletResponse.SC_BAD_REQUEST);
            response.getWriter().print(reason);
            return;
        }
        byte[] digest = sha256(Files.readAllBytes(hashFile));
        for (int i = Integer.parseInt(raw); i > 1; i--) {
            digest = sha256(digest);
        }
        response.getWriter().print(HexFormat.of().formatHex(digest));
    }

    /** Why n is not acceptable, in one line; null when it is. */
    static String reason(String raw) {
        if (raw == null) {
            return "missing query parameter n";
        }
        int n;
        try {
            n = Integer.parseInt(raw);
        } catch (NumberFormatException e) {
            return "n must be an integer, got '" + raw + "'";
        }
        return n < 1 || n > MAX_N ? "n must be between 1 and " + MAX_N + ", got " + n : null;
    }

    private static byte[] sha256(byte[] data) {
        try {
            // MessageDigest instances are not thread-safe; getInstance is cheap next to the hashing itself.
            return MessageDigest.getInstance("SHA-256").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }
}
