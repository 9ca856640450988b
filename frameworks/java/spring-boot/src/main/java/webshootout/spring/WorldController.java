package webshootout.spring;

import java.util.ArrayList;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.core.RowMapper;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates and cached: rows of `world` through JdbcTemplate, as JSON through Jackson. */
@RestController
class WorldController {
    static final RowMapper<World> ROW = (row, n) -> new World(row.getInt(1), row.getInt(2));
    private static final String SELECT = "SELECT id, randomnumber FROM world WHERE id = ?";

    private final JdbcTemplate jdbc;
    private final WorldCache cache;

    WorldController(JdbcTemplate jdbc, WorldCache cache) {
        this.jdbc = jdbc;
        this.cache = cache;
    }

    @GetMapping(value = "/db", produces = MediaType.APPLICATION_JSON_VALUE)
    World db() {
        return jdbc.queryForObject(SELECT, ROW, TechEmpower.randomId());
    }

    @GetMapping(value = "/queries", produces = MediaType.APPLICATION_JSON_VALUE)
    List<World> queries(@RequestParam(name = "queries", required = false) String queries) {
        return read(TechEmpower.count(queries));
    }

    /** One UPDATE per row, the request's rows sent as one JDBC batch. */
    @GetMapping(value = "/updates", produces = MediaType.APPLICATION_JSON_VALUE)
    List<World> updates(@RequestParam(name = "queries", required = false) String queries) {
        List<World> rows = TechEmpower.renumbered(read(TechEmpower.count(queries)));
        jdbc.batchUpdate("UPDATE world SET randomnumber = ? WHERE id = ?", rows, rows.size(), (statement, row) -> {
            statement.setInt(1, row.randomNumber());
            statement.setInt(2, row.id());
        });
        return rows;
    }

    @GetMapping(value = "/cached-queries", produces = MediaType.APPLICATION_JSON_VALUE)
    List<World> cached(@RequestParam(name = "count", required = false) String count) {
        return cache.random(TechEmpower.count(count));
    }

    private List<World> read(int count) {
        List<World> rows = new ArrayList<>(count);
        for (int id : TechEmpower.randomIds(count)) {
            rows.add(jdbc.queryForObject(SELECT, ROW, id));
        }
        return rows;
    }
}
