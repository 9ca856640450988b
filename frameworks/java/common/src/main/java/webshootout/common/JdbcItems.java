package webshootout.common;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;

/**
 * crud's statements on table items for the stacks on JDBC's own API: one statement per request on a connection
 * borrowed from the pool (autocommit), every answer read back from the table (RETURNING), so the id of a new row is
 * the identity column's. Validation and HTTP stay in each framework's idiom.
 */
public final class JdbcItems {
    private static final String COLUMNS = "id, name, quantity";

    private final DataSource pool;

    public JdbcItems(DataSource pool) {
        this.pool = pool;
    }

    /** The item, or null when no row has that id. */
    public Item find(int id) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT " + COLUMNS + " FROM items WHERE id = ?")) {
            select.setInt(1, id);
            return one(select);
        }
    }

    /** The items at positions (page - 1) * size + 1 .. page * size in id order; page and size already checked. */
    public List<Item> page(int page, int size) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement select = connection.prepareStatement(
                        "SELECT " + COLUMNS + " FROM items ORDER BY id LIMIT ? OFFSET ?")) {
            select.setInt(1, size);
            // A page far past the end must not overflow into a negative offset.
            select.setLong(2, (page - 1L) * size);
            List<Item> items = new ArrayList<>(size);
            try (ResultSet rows = select.executeQuery()) {
                while (rows.next()) {
                    items.add(item(rows));
                }
            }
            return items;
        }
    }

    public Item create(String name, int quantity) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement insert = connection.prepareStatement(
                        "INSERT INTO items (name, quantity) VALUES (?, ?) RETURNING " + COLUMNS)) {
            insert.setString(1, name);
            insert.setInt(2, quantity);
            return one(insert);
        }
    }

    /** The item as stored now, or null when no row has that id. */
    public Item update(int id, String name, int quantity) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement update = connection.prepareStatement(
                        "UPDATE items SET name = ?, quantity = ? WHERE id = ? RETURNING " + COLUMNS)) {
            update.setString(1, name);
            update.setInt(2, quantity);
            update.setInt(3, id);
            return one(update);
        }
    }

    /** Whether a row had that id. */
    public boolean delete(int id) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement delete = connection.prepareStatement("DELETE FROM items WHERE id = ?")) {
            delete.setInt(1, id);
            return delete.executeUpdate() > 0;
        }
    }

    private static Item one(PreparedStatement statement) throws SQLException {
        try (ResultSet row = statement.executeQuery()) {
            return row.next() ? item(row) : null;
        }
    }

    private static Item item(ResultSet row) throws SQLException {
        return new Item(row.getInt(1), row.getString(2), row.getInt(3));
    }
}
