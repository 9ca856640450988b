package webshootout.common.jetty;

import org.eclipse.jetty.alpn.server.ALPNServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2CServerConnectionFactory;
import org.eclipse.jetty.http2.server.HTTP2ServerConnectionFactory;
import org.eclipse.jetty.server.HttpConfiguration;
import org.eclipse.jetty.server.HttpConnectionFactory;
import org.eclipse.jetty.server.SecureRequestCustomizer;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.server.SslConnectionFactory;
import org.eclipse.jetty.util.ssl.SslContextFactory;
import webshootout.common.PemKeyStore;

/**
 * The one connector on PORT of the stacks on Jetty 12 (jetty, javalin), as Jetty's documentation sets up HTTP/2;
 * compiled only into those two (their poms add this folder), as it needs Jetty.
 */
public final class Connectors {
    private Connectors() {}

    /**
     * Without TLS_CERT/TLS_KEY: cleartext HTTP/1.1, with h2c beside it (a connection that opens with HTTP/2's
     * preface is served as HTTP/2). With them: TLS only, ALPN offering h2 and http/1.1, and http/1.1 to a client
     * that offers no ALPN protocol.
     */
    public static ServerConnector connector(Server server, HttpConfiguration http, int selectors, PemKeyStore tls) {
        HttpConnectionFactory http11 = new HttpConnectionFactory(http);
        if (tls == null) {
            return new ServerConnector(server, 1, selectors, http11, new HTTP2CServerConnectionFactory(http));
        }
        http.addCustomizer(new SecureRequestCustomizer());
        SslContextFactory.Server ssl = new SslContextFactory.Server();
        ssl.setKeyStore(tls.keyStore());
        ssl.setKeyStorePassword(tls.password());
        ALPNServerConnectionFactory alpn = new ALPNServerConnectionFactory();
        alpn.setDefaultProtocol(http11.getProtocol());
        return new ServerConnector(server, 1, selectors, new SslConnectionFactory(ssl, alpn.getProtocol()), alpn,
                new HTTP2ServerConnectionFactory(http), http11);
    }
}
