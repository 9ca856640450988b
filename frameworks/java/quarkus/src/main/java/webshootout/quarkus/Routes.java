package webshootout.quarkus;

import io.vertx.ext.web.Router;
import io.vertx.ext.web.handler.FileSystemAccess;
import io.vertx.ext.web.handler.StaticHandler;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import webshootout.common.HttpDate;

/**
 * What Quarkus's HTTP layer does not do by itself, added on its Vert.x router as its docs show: Server and
 * Date on every answer (Quarkus sets neither), and static files from STATIC_DIR (Quarkus serves only
 * META-INF/resources from the jar).
 */
@ApplicationScoped
public class Routes {
    void init(@Observes Router router, @ConfigProperty(name = "webshootout.static-dir") String staticDir) {
        router.route().order(Integer.MIN_VALUE).handler(ctx -> {
            ctx.response().putHeader("Server", "Quarkus");
            // Dated when the headers go out, not when the request came in (a database wait in between).
            ctx.addHeadersEndHandler(end -> ctx.response().putHeader("Date", HttpDate.now()));
            ctx.next();
        });
        router.route("/static/*").handler(StaticHandler.create(FileSystemAccess.ROOT, staticDir));
    }
}
