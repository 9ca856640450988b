package webshootout.helidon;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.helidon.logging.common.LogConfig;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.WebServerConfig;
import io.helidon.webserver.staticcontent.StaticContentFeature;
import io.helidon.webserver.websocket.WsRouting;
import io.helidon.websocket.WsListener;
import io.helidon.websocket.WsSession;
import java.nio.file.Path;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import webshootout.common.Env;
import webshootout.common.JdbcWorkloads;
import webshootout.common.PemKeyStore;

/**
 * Helidon SE 4 WebServer: every request on its own virtual thread, so handlers are plain blocking code (JDBC
 * included), as Helidon 4's programming model is.
 */
public final class Main {
    private Main() {
    }

    public static void main(String[] args) throws Exception {
        LogConfig.configureRuntime();
        Env env = Env.fromSystem();
        PemKeyStore tls = PemKeyStore.fromEnv();
        HikariDataSource pool = new HikariDataSource(new HikariConfig(env.hikari()));
        Handlers handlers = new Handlers(new JdbcWorkloads(pool), pool, Path.of(env.hashFile()));

        WebServerConfig.Builder builder = WebServer.builder()
                .host(env.host())
                .port(env.port())
                .routing(handlers::routing)
                .addRouting(WsRouting.builder().endpoint("/ws", new Echo()))
                .addFeature(StaticContentFeature.create(files -> files.addPath(path -> path
                        .location(Path.of(env.staticDir()))
                        .context("/static"))));
        if (tls != null) {
            builder.tls(t -> t.sslContext(sslContext(tls)));
        }
        WebServer server = builder.build().start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.stop();
            pool.close();
        }));
    }

    /** websocket: every text message goes back as it came. */
    private static final class Echo implements WsListener {
        @Override
        public void onMessage(WsSession session, String text, boolean last) {
            session.send(text, last);
        }
    }

    private static SSLContext sslContext(PemKeyStore tls) {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(tls.keyStore(), tls.password().toCharArray());
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException("TLS from TLS_CERT/TLS_KEY: " + e, e);
        }
    }
}
