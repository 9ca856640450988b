package webshootout.spring;

import java.util.concurrent.ThreadLocalRandom;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** db: one row of `world`, by an id drawn for this request, queried for this request. */
@RestController
class WorldController {
    record World(int id, int randomNumber) {
    }

    private final JdbcTemplate jdbc;

    WorldController(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
    }

    @GetMapping(value = "/db", produces = MediaType.APPLICATION_JSON_VALUE)
    World db() {
        int id = ThreadLocalRandom.current().nextInt(1, 10_001);
        return jdbc.queryForObject("SELECT id, randomnumber FROM world WHERE id = ?",
                (row, n) -> new World(row.getInt(1), row.getInt(2)), id);
    }
}
