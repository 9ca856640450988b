package webshootout.webflux;

import java.util.function.Supplier;
import reactor.core.publisher.Mono;

/**
 * Database work that, once started, runs to its end even when the exchange that asked for it is cancelled.
 *
 * <p>A client that closes its connection mid-request makes WebFlux cancel the handler's chain. Cancelled
 * inside TransactionalOperator's transaction, the chain neither commits nor rolls back: r2dbc-pool takes the
 * connection back still inside that transaction, the autocommit statements of later requests then run in it,
 * and their row locks are held until the server stops (reproduced here: a backend "idle in transaction" whose
 * last statement was another request's UPDATE, and every other UPDATE of that row waiting on it). Work that
 * finishes commits, and its answer is dropped.
 */
final class Uncancelled {
    private Uncancelled() {
    }

    static <T> Mono<T> run(Supplier<Mono<T>> work) {
        return Mono.fromFuture(() -> work.get().toFuture(), true);
    }
}
