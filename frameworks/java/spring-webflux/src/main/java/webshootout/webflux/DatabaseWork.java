package webshootout.webflux;

import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * A request's database work, run to its end once begun even if the client leaves (its answer is then
 * dropped). Cancelled mid-conversation, r2dbc-postgresql 1.0.9 can leave the pooled connection stuck
 * behind the cancelled statement (pgjdbc/r2dbc-postgresql issue 661): r2dbc-pool keeps handing it out,
 * the server runs the statements queued on it until its send buffer is full, and an UPDATE among them
 * then holds its row lock until the server stops. A load ends by closing its connections mid-request,
 * so every trial would leave such connections behind.
 */
final class DatabaseWork {
    private DatabaseWork() {
    }

    static <T> Mono<T> uncancelled(Supplier<Mono<T>> work) {
        return Mono.fromFuture(() -> work.get().toFuture(), true);
    }
}
