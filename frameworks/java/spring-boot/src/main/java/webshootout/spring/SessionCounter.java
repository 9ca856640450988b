package webshootout.spring;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Service;
import org.springframework.transaction.annotation.Transactional;

/** The per-visitor counters of table usersessions, each row's data being {"count":N}. */
@Service
class SessionCounter {
    /** The visitor's new count; uid is set when a new visitor was created (its cookie to send). */
    record Visit(String newUid, int count) {
    }

    record Data(int count) {
    }

    private final JdbcTemplate jdbc;
    private final ObjectMapper mapper;
    private final SecureRandom random = new SecureRandom();

    SessionCounter(JdbcTemplate jdbc, ObjectMapper mapper) {
        this.jdbc = jdbc;
        this.mapper = mapper;
    }

    /** Reads and bumps the visitor's count (row locked until commit), or creates a visitor for a null
     *  or unknown uid. */
    @Transactional
    public Visit visit(String uid) throws JsonProcessingException {
        List<String> rows = uid == null ? List.of()
                : jdbc.queryForList("SELECT data FROM usersessions WHERE uid = ? FOR UPDATE", String.class, uid);
        if (rows.isEmpty()) {
            String fresh = newUid();
            jdbc.update("INSERT INTO usersessions (uid, data) VALUES (?, ?)", fresh, data(1));
            return new Visit(fresh, 1);
        }
        int count = mapper.readValue(rows.get(0), Data.class).count() + 1;
        jdbc.update("UPDATE usersessions SET data = ? WHERE uid = ?", data(count), uid);
        return new Visit(null, count);
    }

    private String data(int count) throws JsonProcessingException {
        return mapper.writeValueAsString(new Data(count));
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
