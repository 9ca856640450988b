package webshootout.vertx;

import io.vertx.core.Future;
import io.vertx.core.http.Cookie;
import io.vertx.core.http.CookieSameSite;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.json.JsonObject;
import io.vertx.ext.web.RoutingContext;
import io.vertx.sqlclient.Pool;
import io.vertx.sqlclient.Tuple;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * session: a per-visitor counter in usersessions, the visitor known by a random uid cookie. vertx-web's
 * SessionHandler has no PostgreSQL store (local, cookie, Redis, Infinispan), so the row is ours.
 */
final class Sessions {
    private static final String COOKIE = "uid";

    private record Visit(String newUid, int count) {
    }

    private final Pool pool;
    private final SecureRandom random = new SecureRandom();

    Sessions(Pool pool) {
        this.pool = pool;
    }

    void handle(RoutingContext ctx) {
        Cookie cookie = ctx.request().getCookie(COOKIE);
        String uid = cookie == null ? null : cookie.getValue();
        pool.withTransaction(connection -> {
            Future<Integer> known = uid == null ? Future.succeededFuture(null)
                    : connection.preparedQuery("SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE")
                            .execute(Tuple.of(uid))
                            .map(rows -> rows.size() == 0 ? null
                                    : new JsonObject(rows.iterator().next().getString(0)).getInteger("count"));
            return known.compose(count -> {
                if (count == null) {
                    Visit visit = new Visit(newUid(), 1);
                    return connection.preparedQuery("INSERT INTO usersessions (uid, data) VALUES ($1, $2)")
                            .execute(Tuple.of(visit.newUid(), data(1))).map(done -> visit);
                }
                Visit visit = new Visit(null, count + 1);
                return connection.preparedQuery("UPDATE usersessions SET data = $1 WHERE uid = $2")
                        .execute(Tuple.of(data(visit.count()), uid)).map(done -> visit);
            });
        }).onSuccess(visit -> {
            if (visit.newUid() != null) {
                ctx.response().addCookie(Cookie.cookie(COOKIE, visit.newUid()).setPath("/").setHttpOnly(true)
                        .setSameSite(CookieSameSite.LAX));
            }
            ctx.response().putHeader(HttpHeaders.CONTENT_TYPE, ServerVerticle.TEXT).end("Count is " + visit.count());
        }).onFailure(ctx::fail);
    }

    private static String data(int count) {
        return new JsonObject().put("count", count).encode();
    }

    private String newUid() {
        byte[] bytes = new byte[18];
        random.nextBytes(bytes);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
    }
}
