package webshootout.common;

import java.util.Map;

/**
 * The harness's TLS_CERT (PEM: the server's certificate, then its CA) and TLS_KEY (PEM, PKCS#8) paths. Both set:
 * the server serves TLS only on PORT; neither: cleartext as always; one alone stops the server rather than let it
 * quietly serve cleartext.
 */
public record TlsFiles(String cert, String key) {
    /** The pair, or null for a cleartext server. */
    public static TlsFiles fromEnv() {
        String cert = System.getenv("TLS_CERT");
        String key = System.getenv("TLS_KEY");
        if (cert == null && key == null) {
            return null;
        }
        if (cert == null || key == null) {
            throw new IllegalStateException("TLS_CERT=" + cert + " and TLS_KEY=" + key + ": set both or neither");
        }
        return new TlsFiles(cert, key);
    }

    /**
     * Spring Boot's PEM SSL on its one connector, so PORT serves TLS only, and HTTP/2, which its server (Tomcat,
     * Reactor Netty) then offers by ALPN beside HTTP/1.1; none for a cleartext server (set at start, not in
     * application.properties, because unset they must be absent, not empty).
     */
    public static Map<String, Object> springBootProperties() {
        TlsFiles tls = fromEnv();
        if (tls == null) {
            return Map.of();
        }
        return Map.of(
                "server.ssl.certificate", "file:" + tls.cert(),
                "server.ssl.certificate-private-key", "file:" + tls.key(),
                "server.http2.enabled", "true");
    }
}
