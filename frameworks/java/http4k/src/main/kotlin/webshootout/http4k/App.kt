package webshootout.http4k

import com.fasterxml.jackson.databind.ObjectMapper
import com.github.mustachejava.DefaultMustacheFactory
import com.github.mustachejava.Mustache
import org.http4k.core.Body
import org.http4k.core.HttpHandler
import org.http4k.core.Method.GET
import org.http4k.core.Request
import org.http4k.core.Response
import org.http4k.core.Status.Companion.BAD_REQUEST
import org.http4k.core.Status.Companion.OK
import org.http4k.core.cookie.Cookie
import org.http4k.core.cookie.cookie
import org.http4k.core.with
import org.http4k.format.Jackson.auto
import org.http4k.routing.ResourceLoader.Companion.Directory
import org.http4k.routing.bind
import org.http4k.routing.routes
import org.http4k.routing.static
import webshootout.common.Hashing
import webshootout.common.JdbcSessions
import webshootout.common.JdbcWorkloads
import webshootout.common.World
import java.io.StringWriter
import java.nio.file.Path
import javax.sql.DataSource

private const val TEXT = "text/plain; charset=utf-8"

data class Message(val message: String)

/** Every HTTP workload as http4k routes; JSON by http4k's Jackson lenses. */
class App(workloads: JdbcWorkloads, pool: DataSource, hashFile: Path, staticDir: Path) {
    private val message = Body.auto<Message>().toLens()
    private val world = Body.auto<World>().toLens()
    private val worlds = Body.auto<List<World>>().toLens()
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private val fortunes: Mustache = DefaultMustacheFactory("templates").compile("fortunes.mustache")
    private val mapper = ObjectMapper()
    private val sessions = JdbcSessions(pool, { mapper.readValue(it, JdbcSessions.Data::class.java) },
        { mapper.writeValueAsString(it) })

    val routes: HttpHandler = routes(
        "/plaintext" bind GET to { _: Request -> Response(OK).header("Content-Type", TEXT).body("Hello, World!") },
        "/json" bind GET to { _: Request -> Response(OK).with(message of Message("Hello, World!")) },
        "/db" bind GET to { _: Request -> Response(OK).with(world of workloads.db()) },
        "/queries" bind GET to { req: Request -> Response(OK).with(worlds of workloads.queries(req.query("queries"))) },
        "/updates" bind GET to { req: Request -> Response(OK).with(worlds of workloads.updates(req.query("queries"))) },
        "/cached-queries" bind GET to { req: Request -> Response(OK).with(worlds of workloads.cached(req.query("count"))) },
        "/fortunes" bind GET to { _: Request ->
            val html = StringWriter(2048)
            fortunes.execute(html, mapOf("fortunes" to workloads.fortunes()))
            Response(OK).header("Content-Type", "text/html; charset=utf-8").body(html.toString())
        },
        "/session" bind GET to { req: Request ->
            val visit = sessions.visit(req.cookie(JdbcSessions.COOKIE)?.value)
            val response = Response(OK).header("Content-Type", TEXT).body("Count is ${visit.count()}")
            visit.newUid()?.let { response.cookie(Cookie(JdbcSessions.COOKIE, it, path = "/", httpOnly = true)) } ?: response
        },
        "/hash" bind GET to { req: Request ->
            val raw = req.query("n")
            val reason = Hashing.reason(raw)
            if (reason != null) {
                Response(BAD_REQUEST).header("Content-Type", TEXT).body(reason)
            } else {
                Response(OK).header("Content-Type", TEXT).body(Hashing.hex(hashFile, raw!!.toInt()))
            }
        },
        "/static" bind static(Directory(staticDir.toString())),
    )
}
