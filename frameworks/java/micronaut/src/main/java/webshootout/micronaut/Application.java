package webshootout.micronaut;

import io.micronaut.runtime.Micronaut;
import io.micronaut.serde.annotation.SerdeImport;
import java.util.Map;
import webshootout.common.Env;
import webshootout.common.JdbcSessions;
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
        Micronaut.build(args).mainClass(Application.class).banner(false).properties(Map.of(
                "micronaut.server.netty.worker.threads", workers,
                "micronaut.executors.io.type", "fixed",
                "micronaut.executors.io.n-threads", Math.max(32, 16 * workers),
                "datasources.default.maximum-pool-size", pool,
                "datasources.default.minimum-idle", pool)).start();
    }
}
