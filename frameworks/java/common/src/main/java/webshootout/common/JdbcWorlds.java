package webshootout.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/** The JDBC stacks' statements on tables world and fortune (JDBC is the JDK's, so no framework is involved). */
public final class JdbcWorlds {
    private JdbcWorlds() {
    }

    /** One SELECT per id, on one connection and one prepared statement. */
    public static List<World> read(Connection connection, int[] ids) throws SQLException {
        List<World> rows = new ArrayList<>(ids.length);
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT id, randomnumber FROM world WHERE id = ?")) {
            for (int id : ids) {
                select.setInt(1, id);
                try (ResultSet row = select.executeQuery()) {
                    if (!row.next()) {
                        throw new SQLException("world has no row with id " + id);
                    }
                    rows.add(new World(row.getInt(1), row.getInt(2)));
                }
            }
        }
        return rows;
    }

    /** One UPDATE per row, sent as one JDBC batch (the driver pipelines them in one round trip). */
    public static void write(Connection connection, List<World> rows) throws SQLException {
        try (PreparedStatement update = connection.prepareStatement(
                "UPDATE world SET randomnumber = ? WHERE id = ?")) {
            for (World row : rows) {
                update.setInt(1, row.randomNumber());
                update.setInt(2, row.id());
                update.addBatch();
            }
            update.executeBatch();
        }
    }

    public static World one(Connection connection, int id) throws SQLException {
        return read(connection, new int[] {id}).get(0);
    }

    /** Every row of fortune, by one query. */
    public static List<Fortune> fortunes(Connection connection) throws SQLException {
        return every(connection, "SELECT id, message FROM fortune",
                row -> new Fortune(row.getInt(1), row.getString(2)));
    }

    public static List<World> all(Connection connection) throws SQLException {
        return every(connection, "SELECT id, randomnumber FROM world",
                row -> new World(row.getInt(1), row.getInt(2)));
    }

    private interface Columns<T> {
        T read(ResultSet row) throws SQLException;
    }

    private static <T> List<T> every(Connection connection, String sql, Columns<T> columns) throws SQLException {
        List<T> rows = new ArrayList<>();
        try (PreparedStatement select = connection.prepareStatement(sql);
             ResultSet row = select.executeQuery()) {
            while (row.next()) {
                rows.add(columns.read(row));
            }
        }
        return rows;
    }
}
