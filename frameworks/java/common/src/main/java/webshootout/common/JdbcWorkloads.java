package webshootout.common;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;

/**
 * TechEmpower's database workloads for the stacks that borrow JDBC connections from a pool, whatever
 * serves them. The cached workload's copy of world is read when this is built, so stacks build it at
 * start (after the harness has seeded the tables).
 */
public final class JdbcWorkloads {
    private final DataSource pool;
    private final WorldCache cache;

    public JdbcWorkloads(DataSource pool) throws SQLException {
        this.pool = pool;
        try (Connection connection = pool.getConnection()) {
            this.cache = new WorldCache(JdbcWorlds.all(connection));
        }
    }

    public World db() throws SQLException {
        int id = TechEmpower.randomId();
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.one(connection, id);
        }
    }

    /** queries: count is the raw query parameter (null when absent). */
    public List<World> queries(String count) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(count));
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.read(connection, ids);
        }
    }

    /** updates: one UPDATE per row, the request's rows sent as one JDBC batch. */
    public List<World> updates(String count) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(count));
        try (Connection connection = pool.getConnection()) {
            List<World> rows = TechEmpower.renumbered(JdbcWorlds.read(connection, ids));
            JdbcWorlds.write(connection, rows);
            return rows;
        }
    }

    /** fortunes: the rows read for this request plus the added one, sorted, for the stack's template. */
    public List<Fortune> fortunes() throws SQLException {
        List<Fortune> read;
        try (Connection connection = pool.getConnection()) {
            read = JdbcWorlds.fortunes(connection);
        }
        return TechEmpower.withExtraSorted(read);
    }

    public List<World> cached(String count) {
        return cache.random(TechEmpower.count(count));
    }
}
