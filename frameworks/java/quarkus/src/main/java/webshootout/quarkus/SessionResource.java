package webshootout.quarkus;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import javax.sql.DataSource;
import webshootout.common.JdbcSessions;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie (Quarkus has no
 * server-side session store). JDBC on the Agroal pool, on a worker thread.
 */
@Path("/session")
public class SessionResource {
    private final JdbcSessions sessions;

    SessionResource(DataSource pool, ObjectMapper mapper) {
        this.sessions = new JdbcSessions(pool, data -> mapper.readValue(data, JdbcSessions.Data.class),
                mapper::writeValueAsString);
    }

    @GET
    @Produces(HelloResource.TEXT)
    public Response session(@CookieParam(JdbcSessions.COOKIE) String uid) throws Exception {
        JdbcSessions.Visit visit = sessions.visit(uid);
        Response.ResponseBuilder response = Response.ok("Count is " + visit.count());
        if (visit.newUid() != null) {
            response.cookie(new NewCookie.Builder(JdbcSessions.COOKIE).value(visit.newUid()).path("/").httpOnly(true)
                    .sameSite(NewCookie.SameSite.LAX).build());
        }
        return response.build();
    }
}
