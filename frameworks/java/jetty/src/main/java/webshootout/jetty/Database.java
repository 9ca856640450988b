package webshootout.jetty;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The HikariCP pool every database servlet borrows from. */
final class Database {
    private Database() {
    }

    static HikariDataSource pool(Env env) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl("jdbc:postgresql://" + env.pgHost() + ":" + env.pgPort() + "/" + env.pgDatabase());
        config.setUsername(env.pgUser());
        config.setPassword(env.pgPassword());
        // Request threads block on the database, so a few connections per CPU keep the CPUs busy while
        // PostgreSQL (on the same CPUs) answers; the same sizing as the other stacks in this repository.
        config.setMaximumPoolSize(Math.max(8, 4 * env.workers()));
        config.setPoolName("webshootout");
        return new HikariDataSource(config);
    }
}
