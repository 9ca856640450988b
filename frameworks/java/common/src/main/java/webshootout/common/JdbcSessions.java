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
 * read and bumped, or a new visitor's row is inserted. The JSON of column data ({"count":N}) is left to
 * the stack's own JSON library (the codec).
 */
public final class JdbcSessions {
    /** Reads and writes column data. */
    public interface Codec {
        int count(String data) throws Exception;

        String data(int count) throws Exception;
    }

    /** The visitor's new count; newUid is set when a visitor was created (the cookie to send). */
    public record Visit(String newUid, int count) {
    }

    private final DataSource pool;
    private final Codec codec;
    private final SecureRandom random = new SecureRandom();

    public JdbcSessions(DataSource pool, Codec codec) {
        this.pool = pool;
        this.codec = codec;
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
                return row.next() ? codec.count(row.getString(1)) : null;
            }
        }
    }

    private void write(Connection connection, String sql, String uid, int count) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, codec.data(count));
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
