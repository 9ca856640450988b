package webshootout.micronaut;

import io.micronaut.context.annotation.Context;
import io.micronaut.context.annotation.Factory;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import io.micronaut.views.View;
import jakarta.inject.Singleton;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import webshootout.common.Fortune;
import webshootout.common.JdbcWorlds;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates, fortunes and cached: JDBC on Micronaut's HikariCP DataSource, on the blocking executor. */
@Controller
@ExecuteOn(TaskExecutors.BLOCKING)
public class WorldController {
    private final DataSource pool;
    private final WorldCache cache;

    WorldController(DataSource pool, WorldCache cache) {
        this.pool = pool;
        this.cache = cache;
    }

    /** cached's copy of world, read once at start (an eager @Context bean). */
    @Factory
    static class CacheFactory {
        @Context
        @Singleton
        WorldCache worldCache(DataSource pool) throws SQLException {
            try (Connection connection = pool.getConnection()) {
                return new WorldCache(JdbcWorlds.all(connection));
            }
        }
    }

    @Get("/db")
    @Produces(MediaType.APPLICATION_JSON)
    public World db() throws SQLException {
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.one(connection, TechEmpower.randomId());
        }
    }

    @Get("/queries")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> queries(@QueryValue @Nullable String queries) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(queries));
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.read(connection, ids);
        }
    }

    /** One UPDATE per row, the request's rows sent as one JDBC batch. */
    @Get("/updates")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> updates(@QueryValue @Nullable String queries) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(queries));
        try (Connection connection = pool.getConnection()) {
            List<World> rows = TechEmpower.renumbered(JdbcWorlds.read(connection, ids));
            JdbcWorlds.write(connection, rows);
            return rows;
        }
    }

    @Get("/cached-queries")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> cached(@QueryValue @Nullable String count) {
        return cache.random(TechEmpower.count(count));
    }

    /** fortunes: Micronaut Views with Thymeleaf (views/fortunes.html, th:text escapes). */
    @Get("/fortunes")
    @View("fortunes")
    @Produces("text/html;charset=utf-8")
    public Map<String, Object> fortunes() throws SQLException {
        List<Fortune> read;
        try (Connection connection = pool.getConnection()) {
            read = JdbcWorlds.fortunes(connection);
        }
        return Map.of("fortunes", TechEmpower.withExtraSorted(read));
    }
}
