package webshootout.javalin;

import io.javalin.http.Context;
import io.javalin.http.HttpStatus;
import java.io.IOException;
import java.nio.file.Path;
import webshootout.common.Hashing;

/** hash: SHA-256 of HASH_FILE (read from disk on every request), re-hashed n - 1 times. */
final class HashHandler {
    private HashHandler() {
    }

    static void handle(Context ctx, Path hashFile) throws IOException {
        ctx.contentType(Main.TEXT);
        String raw = ctx.queryParam("n");
        String reason = Hashing.reason(raw);
        if (reason != null) {
            ctx.status(HttpStatus.BAD_REQUEST).result(reason);
            return;
        }
        ctx.result(Hashing.hex(hashFile, Integer.parseInt(raw)));
    }
}
