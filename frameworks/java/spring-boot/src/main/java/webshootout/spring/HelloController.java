package webshootout.spring;

import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** plaintext and json, through Spring MVC's message converters (Jackson for json). */
@RestController
class HelloController {
    @GetMapping(value = "/plaintext", produces = Application.TEXT)
    String plaintext() {
        return "Hello, World!";
    }

    @GetMapping(value = "/json", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> json() {
        return Map.of("message", "Hello, World!");
    }
}
