package webshootout.ktor

import io.ktor.server.html.respondHtml
import io.ktor.server.response.respond
import io.ktor.server.routing.Route
import io.ktor.server.routing.get
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.withContext
import kotlinx.html.body
import kotlinx.html.head
import kotlinx.html.table
import kotlinx.html.td
import kotlinx.html.th
import kotlinx.html.title
import kotlinx.html.tr
import webshootout.common.Fortune
import webshootout.common.JdbcWorkloads
import webshootout.common.World

/**
 * db, queries, updates, fortunes and cached: JDBC's own API on HikariCP (the shared JdbcWorkloads), run on the
 * database dispatcher; the rows are answered through ContentNegotiation (kotlinx.serialization) and the
 * fortunes page is built by Ktor's HTML DSL (respondHtml, kotlinx.html), whose text nodes are HTML-escaped.
 */
fun Route.databaseRoutes(workloads: JdbcWorkloads, database: CoroutineDispatcher) {
    get("/db") {
        val row: World = withContext(database) { workloads.db() }
        call.respond(row)
    }
    get("/queries") {
        val count = call.request.queryParameters["queries"]
        val rows: List<World> = withContext(database) { workloads.queries(count) }
        call.respond(rows)
    }
    get("/updates") {
        val count = call.request.queryParameters["queries"]
        val rows: List<World> = withContext(database) { workloads.updates(count) }
        call.respond(rows)
    }
    get("/fortunes") {
        val fortunes: List<Fortune> = withContext(database) { workloads.fortunes() }
        call.respondHtml {
            head { title { +"Fortunes" } }
            body {
                table {
                    tr {
                        th { +"id" }
                        th { +"message" }
                    }
                    for (fortune in fortunes) {
                        tr {
                            td { +fortune.id().toString() }
                            td { +fortune.message() }
                        }
                    }
                }
            }
        }
    }
    get("/cached-queries") {
        // From memory (no query): no blocking, so on the call thread.
        val rows: List<World> = workloads.cached(call.request.queryParameters["count"])
        call.respond(rows)
    }
}
