package webshootout.common;

import java.util.Properties;

/** The harness's environment variables, read once at start; a missing or bad one stops the server. */
public record Env(String host, int port, int workers, int dbPool, String hashFile, String staticDir,
           String pgHost, int pgPort, String pgUser, String pgPassword, String pgDatabase) {

    public static Env fromSystem() {
        return new Env(required("HOST"), number("PORT"), number("WORKERS"), number("DB_POOL_TOTAL"), required("HASH_FILE"),
                required("STATIC_DIR"), required("PGHOST"), number("PGPORT"), required("PGUSER"),
                required("PGPASSWORD"), required("PGDATABASE"));
    }

    public String jdbcUrl() {
        return "jdbc:postgresql://" + pgHost + ":" + pgPort + "/" + pgDatabase;
    }

    /**
     * HikariCP's settings (its HikariConfig(Properties) reads them), for the stacks that open the pool
     * themselves: DB_POOL_TOTAL connections (one process serves every core), opened at start and kept (the
     * fairness rule, docs/fairness.md); a fixed-size pool is also what HikariCP's documentation recommends.
     */
    public Properties hikari() {
        Properties settings = new Properties();
        settings.setProperty("jdbcUrl", jdbcUrl());
        settings.setProperty("username", pgUser);
        settings.setProperty("password", pgPassword);
        settings.setProperty("maximumPoolSize", Integer.toString(dbPool));
        settings.setProperty("minimumIdle", Integer.toString(dbPool));
        settings.setProperty("poolName", "webshootout");
        return settings;
    }

    private static String required(String name) {
        String value = System.getenv(name);
        if (value == null || value.isEmpty()) {
            throw new IllegalStateException("environment variable " + name + " is not set");
        }
        return value;
    }

    private static int number(String name) {
        String value = required(name);
        try {
            int n = Integer.parseInt(value);
            if (n > 0) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // reported below with the value
        }
        throw new IllegalStateException("environment variable " + name + "=" + value + " is not a positive integer");
    }
}
