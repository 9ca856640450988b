package webshootout.spring;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
@RestController
class HashController {
    static final int MAX_N = 100_000;

    private final Path hashFile;

    HashController(@Value("${webshootout.hash-file}") Path hashFile) {
        this.hashFile = hashFile;
    }

    @GetMapping(value = "/hash", produces = Application.TEXT)
    ResponseEntity<String> hash(@RequestParam(name = "n", required = false) String raw) throws IOException {
        String reason = reason(raw);
        if (reason != null) {
            return ResponseEntity.badRequest().body(reason);
        }
        byte[] digest = sha256(Files.readAllBytes(hashFile));
        for (int i = Integer.parseInt(raw); i > 1; i--) {
            digest = sha256(digest);
        }
        return ResponseEntity.ok(HexFormat.of().formatHex(digest));
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
