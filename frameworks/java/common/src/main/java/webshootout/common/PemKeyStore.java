package webshootout.common;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.HexFormat;

/**
 * The harness's TLS_CERT (PEM: the server's certificate, then its CA) and TLS_KEY (PEM, PKCS#8, ECDSA P-256) as an
 * in-memory KeyStore, for the servers whose TLS setup takes a KeyStore rather than PEM files (Jetty's
 * SslContextFactory, Ktor's sslConnector): Java 17's KeyStore reads no PEM.
 */
public record PemKeyStore(KeyStore keyStore, String alias, String password) {
    private static final String BEGIN = "-----BEGIN PRIVATE KEY-----";
    private static final String END = "-----END PRIVATE KEY-----";

    /** Both set: their key store; neither: null, the server stays cleartext; one alone stops the server. */
    public static PemKeyStore fromEnv() {
        TlsFiles files = TlsFiles.fromEnv();
        if (files == null) {
            return null;
        }
        try {
            return load(Path.of(files.cert()), Path.of(files.key()));
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("TLS_CERT=" + files.cert() + ", TLS_KEY=" + files.key() + ": " + e, e);
        }
    }

    private static PemKeyStore load(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
        Certificate[] chain;
        try (InputStream in = Files.newInputStream(certFile)) {
            chain = CertificateFactory.getInstance("X.509").generateCertificates(in).toArray(new Certificate[0]);
        }
        if (chain.length == 0) {
            throw new GeneralSecurityException("no certificate in " + certFile);
        }
        String pem = Files.readString(keyFile, StandardCharsets.US_ASCII);
        int begin = pem.indexOf(BEGIN);
        int end = pem.indexOf(END);
        if (begin < 0 || end < begin) {
            throw new GeneralSecurityException(keyFile + " holds no PKCS#8 \"" + BEGIN + "\" block");
        }
        byte[] der = Base64.getMimeDecoder().decode(pem.substring(begin + BEGIN.length(), end));
        PrivateKey key = KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(der));

        // The key managers need a password to read the key back; it never leaves this process.
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        KeyStore store = KeyStore.getInstance("PKCS12");
        store.load(null, null);
        store.setKeyEntry("server", key, password.toCharArray(), chain);
        return new PemKeyStore(store, "server", password);
    }
}
