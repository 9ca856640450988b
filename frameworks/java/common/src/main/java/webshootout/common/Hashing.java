package webshootout.common;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** The hash workload apart from HTTP: check n, read the file on every call, SHA-256 it n times. */
public final class Hashing {
    public static final int MAX_N = 100_000;

    private Hashing() {}

    /** Why n is not acceptable, in one line; null when it is. */
    public static String reason(String raw) {
        return QueryCount.reason(raw, MAX_N);
    }

    /** Lowercase hex of SHA-256 applied n times, the first time to the file's bytes read now. */
    public static String hex(Path file, int n) throws IOException {
        byte[] digest = sha256(Files.readAllBytes(file));
        for (int i = n; i > 1; i--) {
            digest = sha256(digest);
        }
        return HexFormat.of().formatHex(digest);
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
