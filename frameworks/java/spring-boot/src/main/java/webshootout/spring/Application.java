package webshootout.spring;

import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;
import webshootout.common.TlsFiles;
import webshootout.common.WorldCache;

@SpringBootApplication
public class Application {
    /** Spring's String converter defaults to ISO-8859-1: every text answer names UTF-8 instead. */
    static final String TEXT = "text/plain;charset=UTF-8";

    /** cached's copy of world, read once at start. */
    @Bean
    WorldCache worldCache(JdbcTemplate jdbc) {
        return new WorldCache(jdbc.query("SELECT id, randomnumber FROM world", WorldController.ROW));
    }

    public static void main(String[] args) {
        int workers = positive("WORKERS");
        String dbPool = String.valueOf(positive("DB_POOL_TOTAL"));
        SpringApplication app = new SpringApplication(Application.class);
        // Sized from WORKERS here because properties files cannot compute. Blocking JDBC holds a Tomcat
        // thread per database request; idle keep-alive connections hold none (NIO connector).
        // The database pool is DB_POOL_TOTAL connections (one process serves every core), fixed (the fairness rule, docs/fairness.md).
        Map<String, Object> defaults = new HashMap<>(Map.of(
                "server.tomcat.threads.max", String.valueOf(Math.max(32, 16 * workers)),
                "server.tomcat.threads.min-spare", String.valueOf(Math.min(8, 2 * workers)),
                "spring.datasource.hikari.maximum-pool-size", dbPool,
                "spring.datasource.hikari.minimum-idle", dbPool));
        defaults.putAll(TlsFiles.springBootProperties());  // with TLS_CERT/TLS_KEY
        app.setDefaultProperties(defaults);
        app.run(args);
    }

    private static int positive(String name) {
        String value = System.getenv(name);
        try {
            int n = Integer.parseInt(value == null ? "" : value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the value
        }
        throw new IllegalStateException("environment variable " + name + "=" + value + " is not a positive integer");
    }
}
