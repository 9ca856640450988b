package webshootout.common;

import java.time.Duration;

/** async apart from HTTP: how long each stack's own timer or non-blocking sleep waits before plaintext's answer. */
public final class Async {
    public static final Duration WAIT = Duration.ofMillis(15);

    private Async() {
    }
}
