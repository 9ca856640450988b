package webshootout.quarkus;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import webshootout.common.JdbcWorkloads;
import webshootout.common.World;

/** db, queries, updates and cached: JDBC on the Agroal pool (blocking methods: worker threads), JSON by Jackson. */
@Path("/")
@jakarta.ws.rs.Produces("application/json")
public class WorldResource {
    private final JdbcWorkloads workloads;

    WorldResource(JdbcWorkloads workloads) {
        this.workloads = workloads;
    }

    /** Built at start: it reads cached's copy of world. */
    @Singleton
    static class WorkloadsProducer {
        @Produces
        @Singleton
        @Startup
        JdbcWorkloads workloads(DataSource pool) throws SQLException {
            return new JdbcWorkloads(pool);
        }
    }

    @GET
    @Path("db")
    public World db() throws SQLException {
        return workloads.db();
    }

    @GET
    @Path("queries")
    public List<World> queries(@QueryParam("queries") String queries) throws SQLException {
        return workloads.queries(queries);
    }

    @GET
    @Path("updates")
    public List<World> updates(@QueryParam("queries") String queries) throws SQLException {
        return workloads.updates(queries);
    }

    @GET
    @Path("cached-queries")
    public List<World> cached(@QueryParam("count") String count) {
        return workloads.cached(count);
    }
}
