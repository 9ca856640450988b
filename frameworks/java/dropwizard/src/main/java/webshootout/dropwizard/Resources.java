package webshootout.dropwizard;

import io.dropwizard.views.common.View;
import jakarta.ws.rs.CookieParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.NewCookie;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import webshootout.common.Fortune;
import webshootout.common.Hashing;
import webshootout.common.JdbcSessions;
import webshootout.common.World;

/** Every HTTP workload but static and websocket, as one Jersey resource; JSON by Dropwizard's Jackson provider. */
@Path("/")
public final class Resources {
    static final String TEXT = "text/plain; charset=utf-8";
    static final String JSON = MediaType.APPLICATION_JSON;

    private final Database database;
    private final java.nio.file.Path hashFile;

    Resources(Database database, java.nio.file.Path hashFile) {
        this.database = database;
        this.hashFile = hashFile;
    }

    public record Message(String message) {
    }

    /** fortunes: Dropwizard's View, rendered by FreeMarker (fortunes.ftlh: HTML output format, so escaped). */
    public static final class FortunesView extends View {
        private final List<Fortune> fortunes;

        FortunesView(List<Fortune> fortunes) {
            super("fortunes.ftlh", StandardCharsets.UTF_8);
            this.fortunes = fortunes;
        }

        public List<Fortune> getFortunes() {
            return fortunes;
        }
    }

    @GET
    @Path("plaintext")
    @Produces(TEXT)
    public String plaintext() {
        return "Hello, World!";
    }

    @GET
    @Path("json")
    @Produces(JSON)
    public Message json() {
        return new Message("Hello, World!");
    }

    @GET
    @Path("db")
    @Produces(JSON)
    public World db() {
        return database.db();
    }

    @GET
    @Path("queries")
    @Produces(JSON)
    public List<World> queries(@QueryParam("queries") String queries) {
        return database.queries(queries);
    }

    @GET
    @Path("updates")
    @Produces(JSON)
    public List<World> updates(@QueryParam("queries") String queries) {
        return database.updates(queries);
    }

    @GET
    @Path("cached-queries")
    @Produces(JSON)
    public List<World> cached(@QueryParam("count") String count) {
        return database.cached(count);
    }

    @GET
    @Path("fortunes")
    @Produces("text/html; charset=utf-8")
    public FortunesView fortunes() {
        return new FortunesView(database.fortunes());
    }

    @GET
    @Path("session")
    @Produces(TEXT)
    public Response session(@CookieParam(JdbcSessions.COOKIE) String uid) throws Exception {
        JdbcSessions.Visit visit = database.visit(uid);
        Response.ResponseBuilder response = Response.ok("Count is " + visit.count(), TEXT);
        if (visit.newUid() != null) {
            response.cookie(new NewCookie.Builder(JdbcSessions.COOKIE).value(visit.newUid()).path("/").httpOnly(true).build());
        }
        return response.build();
    }

    @GET
    @Path("hash")
    @Produces(TEXT)
    public Response hash(@QueryParam("n") String n) throws IOException {
        String reason = Hashing.reason(n);
        if (reason != null) {
            return Response.status(Response.Status.BAD_REQUEST).entity(reason).type(TEXT).build();
        }
        return Response.ok(Hashing.hex(hashFile, Integer.parseInt(n)), TEXT).build();
    }
}
