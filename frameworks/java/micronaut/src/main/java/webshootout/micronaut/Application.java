package webshootout.micronaut;

import io.micronaut.runtime.Micronaut;
import io.micronaut.serde.annotation.SerdeImport;
import java.util.HashMap;
import java.util.Map;
import webshootout.common.Env;
import webshootout.common.JdbcSessions;
import webshootout.common.TlsFiles;
import webshootout.common.World;

/** Micronaut on Netty; controllers that block (JDBC, hash) run on the blocking executor (@ExecuteOn). */
@SerdeImport(World.class)
@SerdeImport(JdbcSessions.Data.class)
public class Application {
    static final String TEXT = "text/plain;charset=utf-8";

    public static void main(String[] args) {
        Env env = Env.fromSystem();
        int workers = env.workers();
        String pool = String.valueOf(env.dbPool());
        // Blocking JDBC holds a thread per database request: the IO executor (what TaskExecutors.BLOCKING
        // is on Java 17) is a fixed pool sized like the other Java stacks', max(32, 16 x WORKERS), instead
        // of Micronaut's unbounded cached pool. Netty's event loops follow WORKERS. The database pool is
        // DB_POOL_TOTAL connections (one process), fixed (the fairness rule, docs/fairness.md).
        Map<String, Object> properties = new HashMap<>(Map.of(
                "micronaut.server.netty.worker.threads", workers,
                "micronaut.executors.io.type", "fixed",
                "micronaut.executors.io.n-threads", Math.max(32, 16 * workers),
                "datasources.default.maximum-pool-size", pool,
                "datasources.default.minimum-idle", pool));
        properties.putAll(tls(env));
        Micronaut.build(args).mainClass(Application.class).banner(false).properties(properties).start();
    }

    /**
     * With TLS_CERT and TLS_KEY (PEM paths): Micronaut's HTTPS on PORT alone (no dual protocol, so no cleartext
     * listener) and HTTP version 2.0, which Netty then offers by ALPN beside http/1.1. Neither set: nothing,
     * cleartext HTTP/1.1 as before (set here because unset they must be absent, not empty).
     */
    private static Map<String, Object> tls(Env env) {
        TlsFiles tls = TlsFiles.fromEnv();
        if (tls == null) {
            return Map.of();
        }
        return Map.of(
                "micronaut.server.ssl.enabled", true,
                "micronaut.server.ssl.port", env.port(),
                "micronaut.server.ssl.key-store.certificate-path", "file:" + tls.cert(),
                "micronaut.server.ssl.key-store.key-path", "file:" + tls.key(),
                "micronaut.server.http-version", "2.0");
    }
}
