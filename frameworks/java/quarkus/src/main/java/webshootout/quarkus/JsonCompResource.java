package webshootout.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Response;
import webshootout.common.JsonComp;

/**
 * json-comp: the array of n objects through Quarkus REST's Jackson, compressed by Quarkus's HTTP layer
 * (quarkus.http.enable-compression, application.properties) since application/json is among its default
 * compress-media-types.
 */
@Path("/json-comp")
public class JsonCompResource {
    @GET
    @Produces("application/json")
    public Response jsonComp(@QueryParam("n") String raw) {
        String reason = JsonComp.reason(raw);
        if (reason != null) {
            return Response.status(Response.Status.BAD_REQUEST).type(HelloResource.TEXT).entity(reason).build();
        }
        // Quarkus's compression (Netty's compressor underneath) sets no Vary.
        return Response.ok(JsonComp.items(Integer.parseInt(raw))).header("Vary", "Accept-Encoding").build();
    }
}
