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
import java.sql.SQLException;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;
import webshootout.common.JdbcWorkloads;
import webshootout.common.World;

/** db, queries, updates, fortunes and cached: JDBC on Micronaut's HikariCP DataSource, on the blocking executor. */
@Controller
@ExecuteOn(TaskExecutors.BLOCKING)
public class WorldController {
    private final JdbcWorkloads workloads;

    WorldController(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    /** An eager @Context bean: building it reads cached's copy of world at start. */
    @Factory
    static class WorkloadsFactory {
        @Context
        @Singleton
        JdbcWorkloads workloads(DataSource pool) throws SQLException {
            return new JdbcWorkloads(pool);
        }
    }

    @Get("/db")
    @Produces(MediaType.APPLICATION_JSON)
    public World db() throws SQLException {
        return workloads.db();
    }

    @Get("/queries")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> queries(@QueryValue @Nullable String queries) throws SQLException {
        return workloads.queries(queries);
    }

    @Get("/updates")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> updates(@QueryValue @Nullable String queries) throws SQLException {
        return workloads.updates(queries);
    }

    @Get("/cached-queries")
    @Produces(MediaType.APPLICATION_JSON)
    public List<World> cached(@QueryValue @Nullable String count) {
        return workloads.cached(count);
    }

    /** fortunes: Micronaut Views with Thymeleaf (views/fortunes.html, th:text escapes). */
    @Get("/fortunes")
    @View("fortunes")
    @Produces("text/html;charset=utf-8")
    public Map<String, Object> fortunes() throws SQLException {
        return Map.of("fortunes", workloads.fortunes());
    }
}
