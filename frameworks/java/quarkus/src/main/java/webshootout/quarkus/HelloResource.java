package webshootout.quarkus;

import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import java.util.Map;

/** plaintext and json, through Quarkus REST (JSON by Jackson). */
@Path("/")
public class HelloResource {
    static final String TEXT = "text/plain; charset=utf-8";

    @GET
    @Path("plaintext")
    @Produces(TEXT)
    public String plaintext() {
        return "Hello, World!";
    }

    @GET
    @Path("json")
    @Produces("application/json")
    public Map<String, String> json() {
        return Map.of("message", "Hello, World!");
    }
}
