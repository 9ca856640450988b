package webshootout.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * upload and upload-chunked apart from HTTP: counts and SHA-256s a request body as the framework hands it over
 * (whole, in pieces, or as a stream), and says the answer, {@code <bytes read> <lowercase hex SHA-256>}.
 * One instance per request: MessageDigest is not thread-safe.
 */
public final class Upload {
    /**
     * The request-body limit every Java stack gives its framework's own setting: room for the contract's largest
     * body (1 MiB), far below the 16 MiB it must refuse.
     */
    public static final int LIMIT = 2 << 20;

    private final MessageDigest digest;
    private long bytes;

    public Upload() {
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("this JVM has no SHA-256", e);
        }
    }

    public Upload update(byte[] data, int offset, int length) {
        digest.update(data, offset, length);
        bytes += length;
        return this;
    }

    public Upload update(byte[] data) {
        return update(data, 0, data.length);
    }

    public Upload update(ByteBuffer data) {
        bytes += data.remaining();
        digest.update(data);
        return this;
    }

    /** The bytes counted so far. */
    public long bytes() {
        return bytes;
    }

    /** The answer for the body fed so far; ends this digest. */
    public String answer() {
        return bytes + " " + HexFormat.of().formatHex(digest.digest());
    }

    /** The answer for a whole body already in memory. */
    public static String of(byte[] body) {
        return new Upload().update(body).answer();
    }

    /** Reads a body stream to its end, for a framework whose own body-size limit applies beneath the stream. */
    public static String read(InputStream body) throws IOException {
        return read(body, Long.MAX_VALUE);
    }

    /**
     * Reads a body stream to its end, for a framework that hands the body over as an InputStream and has no limit
     * of its own on it: past {@code limit} bytes it stops reading and throws {@link TooLarge}, for the caller to
     * answer 413 in its framework's way.
     */
    public static String read(InputStream body, long limit) throws IOException {
        Upload upload = new Upload();
        byte[] buffer = new byte[16 << 10];
        for (int n; (n = body.read(buffer)) != -1; ) {
            if (upload.bytes + n > limit) {
                throw new TooLarge(limit);
            }
            upload.update(buffer, 0, n);
        }
        return upload.answer();
    }

    /** A body over the stack's limit. */
    public static final class TooLarge extends IOException {
        public TooLarge(long limit) {
            super("request body over " + limit + " bytes");
        }
    }
}
