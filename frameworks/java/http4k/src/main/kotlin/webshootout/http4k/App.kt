package webshootout.http4k

import com.fasterxml.jackson.databind.ObjectMapper
import com.github.mustachejava.DefaultMustacheFactory
import com.github.mustachejava.Mustache
import org.http4k.core.Body
import org.http4k.core.Filter
import org.http4k.core.HttpHandler
import org.http4k.core.Method.GET
import org.http4k.core.Method.POST
import org.http4k.core.Request
import org.http4k.core.Response
import org.http4k.core.Status.Companion.BAD_REQUEST
import org.http4k.core.Status.Companion.OK
import org.http4k.core.cookie.Cookie
import org.http4k.core.cookie.cookie
import org.http4k.core.then
import org.http4k.core.with
import org.http4k.filter.ServerFilters
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
import java.security.MessageDigest
import java.util.HexFormat
import javax.sql.DataSource

private const val TEXT = "text/plain; charset=utf-8"

data class Message(val message: String)

/** One of json-comp's objects. */
data class Item(val id: Int, val message: String)

/** http4k's GZip filter names no Vary; what it encoded depends on Accept-Encoding, so caches are told. */
private val varyOnEncoding = Filter { next ->
    { request: Request ->
        val response = next(request)
        if (response.header("Content-Encoding") != null) response.header("Vary", "Accept-Encoding") else response
    }
}

/** Every HTTP workload as http4k routes; JSON by http4k's Jackson lenses. */
class App(workloads: JdbcWorkloads, pool: DataSource, hashFile: Path, staticDir: Path) {
    private val message = Body.auto<Message>().toLens()
    private val world = Body.auto<World>().toLens()
    private val worlds = Body.auto<List<World>>().toLens()
    private val items = Body.auto<List<Item>>().toLens()
    // Compiled once at start (from the jar's resources); a compiled Mustache is thread-safe.
    private val fortunes: Mustache = DefaultMustacheFactory("templates").compile("fortunes.mustache")
    private val mapper = ObjectMapper()
    private val sessions = JdbcSessions(pool, { mapper.readValue(it, JdbcSessions.Data::class.java) },
        { mapper.writeValueAsString(it) })

    // http4k's ServerFilters.GZip in front of every route, at its defaults (GzipCompressionMode.Memory, the JDK's
    // default deflate level): a request whose Accept-Encoding names gzip gets a gzip body, any other the plain one.
    val routes: HttpHandler = varyOnEncoding.then(ServerFilters.GZip()).then(routes(
        "/plaintext" bind GET to { _: Request -> Response(OK).header("Content-Type", TEXT).body("Hello, World!") },
        "/json" bind GET to { _: Request -> Response(OK).with(message of Message("Hello, World!")) },
        "/json-comp" bind GET to { req: Request ->
            val n = req.query("n")?.toIntOrNull()?.coerceIn(1, 1000) ?: 1
            Response(OK).with(items of List(n) { Item(it + 1, "Hello, World!") })
        },
        "/upload" bind POST to ::upload,
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
    ))

    /**
     * upload and upload-chunked: the body's stream (Jetty's request content, Content-Length or chunked alike) read
     * to its end into SHA-256. Jetty's SizeLimitHandler (Main.kt) ends it with 413 past 2 MiB.
     */
    private fun upload(req: Request): Response {
        val digest = MessageDigest.getInstance("SHA-256")
        val buffer = ByteArray(16 * 1024)
        var read = 0L
        req.body.stream.use { input ->
            while (true) {
                val n = input.read(buffer)
                if (n == -1) break
                digest.update(buffer, 0, n)
                read += n
            }
        }
        return Response(OK).header("Content-Type", TEXT).body("$read ${HexFormat.of().formatHex(digest.digest())}")
    }
}
