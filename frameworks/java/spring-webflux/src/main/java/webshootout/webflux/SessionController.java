package webshootout.webflux;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.security.SecureRandom;
import java.util.Base64;
import org.springframework.http.HttpHeaders;
import org.springframework.http.ResponseCookie;
import org.springframework.http.ResponseEntity;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.transaction.reactive.TransactionalOperator;
import org.springframework.web.bind.annotation.CookieValue;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie (WebFlux's
 * WebSession lives in memory; the contract keeps the count in PostgreSQL). One R2DBC transaction.
 */
@RestController
class SessionController {
    private static final String COOKIE = "uid";

    record Data(int count) {
    }

    private record Visit(String newUid, int count) {
    }

    private final DatabaseClient db;
    private final TransactionalOperator transaction;
    private final ObjectMapper mapper;
    private final SecureRandom random = new SecureRandom();

    SessionController(DatabaseClient db, TransactionalOperator transaction, ObjectMapper mapper) {
        this.db = db;
        this.transaction = transaction;
        this.mapper = mapper;
    }

    @GetMapping(value = "/session", produces = Application.TEXT)
    Mono<ResponseEntity<String>> session(@CookieValue(name = COOKIE, required = false) String uid) {
        Mono<Integer> known = uid == null ? Mono.empty()
                : db.sql("SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE").bind(0, uid)
                        .map(row -> row.get(0, String.class)).one().map(this::count);
        Mono<Visit> visit = known
                .flatMap(count -> db.sql("UPDATE usersessions SET data = $1 WHERE uid = $2")
                        .bind(0, data(count + 1)).bind(1, uid).fetch().rowsUpdated()
                        .thenReturn(new Visit(null, count + 1)))
                .switchIfEmpty(Mono.defer(() -> {
                    Visit fresh = new Visit(newUid(), 1);
                    return db.sql("INSERT INTO usersessions (uid, data) VALUES ($1, $2)")
                            .bind(0, fresh.newUid()).bind(1, data(1)).fetch().rowsUpdated().thenReturn(fresh);
                }));
        // Cancelled inside TransactionalOperator the transaction neither commits nor rolls back, r2dbc-pool takes
        // the connection back still inside it, and later requests' autocommit UPDATEs run in it holding their row
        // locks until the server stops (reproduced: a backend "idle in transaction", other UPDATEs waiting on it).
        Mono<Visit> committed = DatabaseWork.uncancelled(() -> visit.as(transaction::transactional));
        return committed.map(done -> {
            ResponseEntity.BodyBuilder response = ResponseEntity.ok();
            if (done.newUid() != null) {
                response.header(HttpHeaders.SET_COOKIE, ResponseCookie.from(COOKIE, done.newUid()).path("/")
                        .httpOnly(true).sameSite("Lax").build().toString());
            }
            return response.body("Count is " + done.count());
        });
    }

    private int count(String data) {
        try {
            return mapper.readValue(data, Data.class).count();
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("usersessions.data is not {\"count\":N}: " + data, e);
        }
    }

    private String data(int count) {
        try {
            return mapper.writeValueAsString(new Data(count));
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
