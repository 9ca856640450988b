package webshootout.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import java.io.IOException;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import webshootout.common.Hashing;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times; a blocking
 *  method, so Quarkus REST runs it on a worker thread. */
@Path("/hash")
public class HashResource {
    @ConfigProperty(name = "webshootout.hash-file")
    java.nio.file.Path hashFile;

    @GET
    @Produces(HelloResource.TEXT)
    public Response hash(@QueryParam("n") String raw) throws IOException {
        String reason = Hashing.reason(raw);
        if (reason != null) {
            return Response.status(Response.Status.BAD_REQUEST).entity(reason).build();
        }
        return Response.ok(Hashing.hex(hashFile, Integer.parseInt(raw))).build();
    }
}
