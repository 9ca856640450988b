package webshootout.spring;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import java.util.HashMap;
import java.util.Map;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.jackson.Jackson2ObjectMapperBuilderCustomizer;
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

    /**
     * crud's bodies: Jackson binds leniently by default (the string "3" or 1.5 to an int, a number to a String),
     * and the contract refuses those with 422, so coercion between JSON's types is switched off. Only crud reads
     * JSON bodies; session's {"count":N} binds as before.
     */
    @Bean
    Jackson2ObjectMapperBuilderCustomizer strictJson() {
        return builder -> builder
                .featuresToDisable(MapperFeature.ALLOW_COERCION_OF_SCALARS, DeserializationFeature.ACCEPT_FLOAT_AS_INT)
                .postConfigurer(mapper -> mapper.coercionConfigFor(LogicalType.Textual)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail));
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
