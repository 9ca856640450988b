package webshootout.spring;

import java.io.IOException;
import java.nio.file.Path;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.http.ResponseEntity;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import webshootout.common.Hashing;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
@RestController
class HashController {
    private final Path hashFile;

    HashController(@Value("${webshootout.hash-file}") Path hashFile) {
        this.hashFile = hashFile;
    }

    @GetMapping(value = "/hash", produces = Application.TEXT)
    ResponseEntity<String> hash(@RequestParam(name = "n", required = false) String raw) throws IOException {
        String reason = Hashing.reason(raw);
        if (reason != null) {
            return ResponseEntity.badRequest().body(reason);
        }
        return ResponseEntity.ok(Hashing.hex(hashFile, Integer.parseInt(raw)));
    }
}
