package webshootout.webflux;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.r2dbc.core.DatabaseClient;
import webshootout.common.Env;
import webshootout.common.TlsFiles;
import webshootout.common.WorldCache;

@SpringBootApplication
public class Application {
    static final String TEXT = "text/plain;charset=UTF-8";

    public static void main(String[] args) {
        Env env = Env.fromSystem();
        // Reactor Netty's event loops follow WORKERS (its default: the CPU count, at least 4).
        System.setProperty("reactor.netty.ioWorkerCount", String.valueOf(env.workers()));
        String pool = String.valueOf(env.dbPool());
        SpringApplication app = new SpringApplication(Application.class);
        // One process: DB_POOL_TOTAL R2DBC connections, opened at start and kept (the fairness rule).
        Map<String, Object> defaults = new HashMap<>(Map.of(
                "spring.r2dbc.pool.initial-size", pool,
                "spring.r2dbc.pool.max-size", pool));
        defaults.putAll(tls());
        app.setDefaultProperties(defaults);
        app.run(args);
    }

    /**
     * With TLS_CERT and TLS_KEY (PEM paths), Spring Boot's PEM SSL on Reactor Netty's one server, so PORT serves
     * TLS only, and HTTP/2, which Reactor Netty then offers by ALPN beside HTTP/1.1. Neither set: nothing,
     * cleartext HTTP/1.1 as before (set here, not in application.properties: unset they must be absent, not empty).
     */
    private static Map<String, Object> tls() {
        TlsFiles tls = TlsFiles.fromEnv();
        if (tls == null) {
            return Map.of();
        }
        return Map.of(
                "server.ssl.certificate", "file:" + tls.cert(),
                "server.ssl.certificate-private-key", "file:" + tls.key(),
                "server.http2.enabled", "true");
    }

    /** cached's copy of world, read once at start. */
    @Bean
    WorldCache worldCache(DatabaseClient db) {
        return new WorldCache(db.sql("SELECT id, randomnumber FROM world").map(WorldController::world).all()
                .collectList().block());
    }
}
