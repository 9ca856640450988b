package webshootout.micronaut;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import java.util.Map;

/** plaintext and json, on the event loop (no blocking), JSON by Micronaut Serialization. */
@Controller
public class HelloController {
    @Get("/plaintext")
    @Produces(Application.TEXT)
    public String plaintext() {
        return "Hello, World!";
    }

    @Get("/json")
    @Produces(MediaType.APPLICATION_JSON)
    public Map<String, String> json() {
        return Map.of("message", "Hello, World!");
    }
}
