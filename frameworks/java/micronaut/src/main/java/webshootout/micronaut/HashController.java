package webshootout.micronaut;

import io.micronaut.context.annotation.Value;
import io.micronaut.core.annotation.Nullable;
import io.micronaut.http.HttpResponse;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import io.micronaut.scheduling.TaskExecutors;
import io.micronaut.scheduling.annotation.ExecuteOn;
import java.io.IOException;
import java.nio.file.Path;
import webshootout.common.Hashing;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
@Controller
public class HashController {
    private final Path hashFile;

    HashController(@Value("${webshootout.hash-file}") String hashFile) {
        this.hashFile = Path.of(hashFile);
    }

    @Get("/hash")
    @Produces(Application.TEXT)
    @ExecuteOn(TaskExecutors.BLOCKING)
    public HttpResponse<String> hash(@QueryValue @Nullable String n) throws IOException {
        String reason = Hashing.reason(n);
        if (reason != null) {
            return HttpResponse.badRequest(reason);
        }
        return HttpResponse.ok(Hashing.hex(hashFile, Integer.parseInt(n)));
    }
}
