package webshootout.common;

import java.security.SecureRandom;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Base64;
import javax.sql.DataSource;

/**
 * The session workload's transaction on usersessions for the JDBC stacks: the visitor's row is locked,
 * read and bumped, or a new visitor's row is inserted. Column data ({"count":N}) is read and written by
 * the stack's own JSON library, given as the two functions.
 */
public final class JdbcSessions {
    /** The cookie that carries the visitor's uid. */
    public static final String COOKIE = "uid";

    /** Column data. */
    public record Data(int count) {
    }

    @FunctionalInterface
    public interface Parse {
        Data parse(String json) throws Exception;
    }

    @FunctionalInterface
    public interface Format {
        String format(Data data) throws Exception;
    }

    /** The visitor's new count; newUid is set when a visitor was created (the cookie to send). */
    public record Visit(String newUid, int count) {
    }

    private final DataSource pool;
    private final Parse parse;
    private final Format format;
    private final SecureRandom random = new SecureRandom();

    public JdbcSessions(DataSource pool, Parse parse, Format format) {
        this.pool = pool;
        this.parse = parse;
        this.format = format;
    }

    /** One transaction: the known visitor's count + 1, or a new visitor (uid null or unknown) at 1. */
    public Visit visit(String uid) throws Exception {
        try (Connection connection = pool.getConnection()) {
            connection.setAutoCommit(false);
            try {
                Integer known = uid == null ? null : lockedCount(connection, uid);
                Visit visit;
                if (known == null) {
                    visit = new Visit(newUid(), 1);
                    write(connection, "INSERT INTO usersessions (data, uid) VALUES (?, ?)", visit.newUid(), 1);
                } else {
                    visit = new Visit(null, known + 1);
                    write(connection, "UPDATE usersessions SET data = ? WHERE uid = ?", uid, visit.count());
                }
                connection.commit();
                return visit;
            } catch (Exception e) {
                connection.rollback();
                throw e;
            } finally {
                connection.setAutoCommit(true);
            }
        }
    }

    private Integer lockedCount(Connection connection, String uid) throws Exception {
        try (PreparedStatement select = connection.prepareStatement(
                "SELECT data FROM usersessions WHERE uid = ? FOR UPDATE")) {
            select.setString(1, uid);
            try (ResultSet row = select.executeQuery()) {
                return row.next() ? parse.parse(row.getString(1)).count() : null;
            }
        }
    }

    private void write(Connection connection, String sql, String uid, int count) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, format.format(new Data(count)));
            statement.setString(2, uid);
            statement.executeUpdate();
        }
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
