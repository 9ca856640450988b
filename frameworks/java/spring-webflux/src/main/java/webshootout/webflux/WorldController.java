package webshootout.webflux;

import io.r2dbc.spi.Readable;
import java.util.List;
import org.springframework.http.MediaType;
import org.springframework.r2dbc.core.DatabaseClient;
import org.springframework.stereotype.Controller;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.ResponseBody;
import org.springframework.web.reactive.result.view.Rendering;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import webshootout.common.Fortune;
import webshootout.common.TechEmpower;
import webshootout.common.World;
import webshootout.common.WorldCache;

/** db, queries, updates, cached and fortunes through Spring's R2DBC DatabaseClient. */
@Controller
class WorldController {
    private static final String SELECT = "SELECT id, randomnumber FROM world WHERE id = $1";

    private final DatabaseClient db;
    private final WorldCache cache;

    WorldController(DatabaseClient db, WorldCache cache) {
        this.db = db;
        this.cache = cache;
    }

    static World world(Readable row) {
        return new World(row.get(0, Integer.class), row.get(1, Integer.class));
    }

    private Mono<World> read(int id) {
        return db.sql(SELECT).bind(0, id).map(WorldController::world).one();
    }

    /** One query per id, all in flight at once. */
    private Mono<List<World>> read(String count) {
        int[] ids = TechEmpower.randomIds(TechEmpower.count(count));
        return Flux.range(0, ids.length).flatMapSequential(i -> read(ids[i])).collectList();
    }

    @GetMapping(value = "/db", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    Mono<World> db() {
        return DatabaseWork.uncancelled(() -> read(TechEmpower.randomId()));
    }

    @GetMapping(value = "/queries", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    Mono<List<World>> queries(@RequestParam(name = "queries", required = false) String queries) {
        return DatabaseWork.uncancelled(() -> read(queries));
    }

    /** One UPDATE per row, each its own statement (autocommit), all in flight at once. */
    @GetMapping(value = "/updates", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    Mono<List<World>> updates(@RequestParam(name = "queries", required = false) String queries) {
        return DatabaseWork.uncancelled(() -> read(queries).map(TechEmpower::renumbered).flatMap(rows -> Flux
                .fromIterable(rows)
                .flatMap(row -> db.sql("UPDATE world SET randomnumber = $1 WHERE id = $2")
                        .bind(0, row.randomNumber()).bind(1, row.id()).fetch().rowsUpdated())
                .then(Mono.just(rows))));
    }

    @GetMapping(value = "/cached-queries", produces = MediaType.APPLICATION_JSON_VALUE)
    @ResponseBody
    List<World> cached(@RequestParam(name = "count", required = false) String count) {
        return cache.random(TechEmpower.count(count));
    }

    /** fortunes: the rows plus one, sorted, rendered by the reactive Mustache view (templates/fortunes.mustache). */
    @GetMapping("/fortunes")
    Mono<Rendering> fortunes() {
        return DatabaseWork.uncancelled(() -> db.sql("SELECT id, message FROM fortune")
                .map(row -> new Fortune(row.get(0, Integer.class), row.get(1, String.class))).all().collectList())
                .map(read -> Rendering.view("fortunes").modelAttribute("fortunes", TechEmpower.withExtraSorted(read))
                        .build());
    }
}
