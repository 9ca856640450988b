package webshootout.quarkus;

import io.quarkus.runtime.Startup;
import jakarta.enterprise.inject.Produces;
import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.QueryParam;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import javax.sql.DataSource;
import webshootout.common.JdbcWorlds;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates and cached: JDBC on the Agroal pool (blocking methods: worker threads), JSON by Jackson. */
@Path("/")
public class WorldResource {
    private final DataSource pool;
    private final WorldCache cache;

    WorldResource(DataSource pool, WorldCache cache) {
        this.pool = pool;
        this.cache = cache;
    }

    /** cached's copy of world, read once at start. */
    @Singleton
    static class CacheProducer {
        @Produces
        @Singleton
        @Startup
        WorldCache worldCache(DataSource pool) throws SQLException {
            try (Connection connection = pool.getConnection()) {
                return new WorldCache(JdbcWorlds.all(connection));
            }
        }
    }

    @GET
    @Path("db")
    @jakarta.ws.rs.Produces("application/json")
    public World db() throws SQLException {
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.one(connection, TechEmpower.randomId());
        }
    }

    @GET
    @Path("queries")
    @jakarta.ws.rs.Produces("application/json")
    public List<World> queries(@QueryParam("queries") String queries) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(queries));
        try (Connection connection = pool.getConnection()) {
            return JdbcWorlds.read(connection, ids);
        }
    }

    /** One UPDATE per row, the request's rows sent as one JDBC batch. */
    @GET
    @Path("updates")
    @jakarta.ws.rs.Produces("application/json")
    public List<World> updates(@QueryParam("queries") String queries) throws SQLException {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(queries));
        try (Connection connection = pool.getConnection()) {
            List<World> rows = TechEmpower.renumbered(JdbcWorlds.read(connection, ids));
            JdbcWorlds.write(connection, rows);
            return rows;
        }
    }

    @GET
    @Path("cached-queries")
    @jakarta.ws.rs.Produces("application/json")
    public List<World> cached(@QueryParam("count") String count) {
        return cache.random(TechEmpower.count(count));
    }
}
