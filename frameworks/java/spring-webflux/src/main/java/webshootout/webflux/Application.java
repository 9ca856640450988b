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
        defaults.putAll(TlsFiles.springBootProperties());  // with TLS_CERT/TLS_KEY
        app.setDefaultProperties(defaults);
        app.run(args);
    }

    /** cached's copy of world, read once at start. */
    @Bean
    WorldCache worldCache(DatabaseClient db) {
        return new WorldCache(db.sql("SELECT id, randomnumber FROM world").map(WorldController::world).all()
                .collectList().block());
    }
}
