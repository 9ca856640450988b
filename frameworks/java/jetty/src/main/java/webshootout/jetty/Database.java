package webshootout.jetty;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import webshootout.common.Env;

/** The HikariCP pool every database servlet borrows from. */
final class Database {
    private Database() {
    }

    static HikariDataSource pool(Env env) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(env.jdbcUrl());
        config.setUsername(env.pgUser());
        config.setPassword(env.pgPassword());
        // DB_POOL_TOTAL connections (one process serves every core), opened at start and kept (the fairness rule, docs/fairness.md); a fixed-size
        // pool is also what HikariCP's documentation recommends.
        config.setMaximumPoolSize(env.dbPool());
        config.setMinimumIdle(env.dbPool());
        config.setPoolName("webshootout");
        return new HikariDataSource(config);
    }
}
