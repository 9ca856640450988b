package webshootout.dropwizard;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import org.jdbi.v3.core.Handle;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.mapper.RowMapper;
import org.jdbi.v3.core.statement.PreparedBatch;
import webshootout.common.Fortune;
import webshootout.common.JdbcSessions;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** TechEmpower's database workloads and the session counter through JDBI 3 (Dropwizard's database module). */
final class Database {
    private static final String SELECT = "SELECT id, randomnumber FROM world WHERE id = :id";
    private static final RowMapper<World> WORLD = (row, ctx) -> new World(row.getInt(1), row.getInt(2));

    private final Jdbi jdbi;
    private final ObjectMapper mapper;
    private final WorldCache cache;
    private final SecureRandom random = new SecureRandom();

    Database(Jdbi jdbi, ObjectMapper mapper) {
        this.jdbi = jdbi;
        this.mapper = mapper;
        // cached: world read once at start, after the harness has seeded it.
        this.cache = new WorldCache(jdbi.withHandle(h ->
                h.createQuery("SELECT id, randomnumber FROM world").map(WORLD).list()));
    }

    World db() {
        int id = TechEmpower.randomId();
        return jdbi.withHandle(h -> read(h, id));
    }

    List<World> queries(String count) {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(count));
        return jdbi.withHandle(h -> read(h, ids));
    }

    /** One UPDATE per row, the request's rows sent as one JDBI batch (one JDBC batch, one round trip). */
    List<World> updates(String count) {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(count));
        return jdbi.withHandle(h -> {
            List<World> rows = TechEmpower.renumbered(read(h, ids));
            PreparedBatch batch = h.prepareBatch("UPDATE world SET randomnumber = :number WHERE id = :id");
            for (World row : rows) {
                batch.bind("number", row.randomNumber()).bind("id", row.id()).add();
            }
            batch.execute();
            return rows;
        });
    }

    List<Fortune> fortunes() {
        List<Fortune> read = jdbi.withHandle(h -> h.createQuery("SELECT id, message FROM fortune")
                .map((row, ctx) -> new Fortune(row.getInt(1), row.getString(2))).list());
        return TechEmpower.withExtraSorted(read);
    }

    List<World> cached(String count) {
        return cache.random(TechEmpower.count(count));
    }

    /** session: one transaction; the known visitor's row locked, read and bumped, or a new visitor's row at 1. */
    JdbcSessions.Visit visit(String uid) throws Exception {
        return jdbi.inTransaction(h -> {
            Optional<String> data = uid == null ? Optional.empty()
                    : h.createQuery("SELECT data FROM usersessions WHERE uid = :uid FOR UPDATE")
                            .bind("uid", uid).mapTo(String.class).findOne();
            if (data.isEmpty()) {
                String created = newUid();
                write(h, "INSERT INTO usersessions (uid, data) VALUES (:uid, :data)", created, 1);
                return new JdbcSessions.Visit(created, 1);
            }
            int count = mapper.readValue(data.get(), JdbcSessions.Data.class).count() + 1;
            write(h, "UPDATE usersessions SET data = :data WHERE uid = :uid", uid, count);
            return new JdbcSessions.Visit(null, count);
        });
    }

    private void write(Handle h, String sql, String uid, int count) throws Exception {
        h.createUpdate(sql).bind("uid", uid)
                .bind("data", mapper.writeValueAsString(new JdbcSessions.Data(count))).execute();
    }

    private static World read(Handle h, int id) {
        return h.createQuery(SELECT).bind("id", id).map(WORLD).one();
    }

    /** One SELECT per id, on the request's one handle. */
    private static List<World> read(Handle h, int[] ids) {
        List<World> rows = new ArrayList<>(ids.length);
        for (int id : ids) {
            rows.add(read(h, id));
        }
        return rows;
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
