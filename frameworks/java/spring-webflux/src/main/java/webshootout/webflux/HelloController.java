package webshootout.webflux;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Map;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.MediaType;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;
import webshootout.common.Hashing;

/** plaintext, json and hash. */
@RestController
class HelloController {
    private final Path hashFile;

    HelloController(@Value("${webshootout.hash-file}") Path hashFile) {
        this.hashFile = hashFile;
    }

    @GetMapping(value = "/plaintext", produces = Application.TEXT)
    String plaintext() {
        return "Hello, World!";
    }

    @GetMapping(value = "/json", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, String> json() {
        return Map.of("message", "Hello, World!");
    }

    /** File read and hashing block: on Reactor's bounded elastic scheduler, off the event loop. */
    @GetMapping(value = "/hash", produces = Application.TEXT)
    Mono<ResponseEntity<String>> hash(@RequestParam(name = "n", required = false) String raw) {
        String reason = Hashing.reason(raw);
        if (reason != null) {
            return Mono.just(ResponseEntity.badRequest().body(reason));
        }
        return Mono.fromCallable(() -> ResponseEntity.ok(hex(Integer.parseInt(raw))))
                .subscribeOn(Schedulers.boundedElastic());
    }

    private String hex(int n) throws IOException {
        return Hashing.hex(hashFile, n);
    }
}
