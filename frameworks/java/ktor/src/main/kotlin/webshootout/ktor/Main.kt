@file:JvmName("Main")

package webshootout.ktor

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import io.ktor.http.HttpStatusCode
import io.ktor.serialization.kotlinx.json.json
import io.ktor.server.application.Application
import io.ktor.server.application.ApplicationStopped
import io.ktor.server.application.install
import io.ktor.server.application.serverConfig
import io.ktor.server.engine.connector
import io.ktor.server.engine.embeddedServer
import io.ktor.server.engine.sslConnector
import io.ktor.server.http.content.staticFiles
import io.ktor.server.netty.Netty
import io.ktor.server.plugins.compression.Compression
import io.ktor.server.plugins.contentnegotiation.ContentNegotiation
import io.ktor.server.response.respond
import io.ktor.server.response.respondText
import io.ktor.server.routing.get
import io.ktor.server.routing.routing
import io.ktor.server.websocket.WebSockets
import io.ktor.server.websocket.webSocket
import io.ktor.websocket.Frame
import io.ktor.websocket.readText
import java.io.File
import java.nio.file.Path
import kotlin.time.toKotlinDuration
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.delay
import kotlinx.coroutines.withContext
import webshootout.common.Async
import webshootout.common.Env
import webshootout.common.Hashing
import webshootout.common.JdbcItems
import webshootout.common.JdbcWorkloads
import webshootout.common.PemKeyStore

/**
 * Ktor on its embedded Netty engine in production form: development mode off (no auto-reload), no CallLogging
 * plugin (no access log), and the engine's three thread groups at Ktor's own default sizes with WORKERS as the
 * parallelism (ApplicationEngine.Configuration: connection and worker groups parallelism / 2 + 1, call group
 * parallelism), so they follow the CPUs the harness gives the server rather than the machine's.
 */
fun main() {
    val env = Env.fromSystem()
    val tls = PemKeyStore.fromEnv()
    val pool = HikariDataSource(HikariConfig(env.hikari()))
    // cached's copy of world is read here, at start, after the harness has seeded the table.
    val workloads = JdbcWorkloads(pool)
    val server = embeddedServer(
        Netty,
        rootConfig = serverConfig {
            developmentMode = false
            module { serveWorkloads(env, pool, workloads) }
        },
        configure = {
            if (tls == null) {
                connector {
                    host = env.host()
                    port = env.port()
                }
            } else {
                // TLS only on PORT. Ktor's Netty engine offers h2 and http/1.1 by ALPN (enableHttp2, on by
                // default, with the JDK's ALPN) and takes the key from a KeyStore, not PEM files. The key
                // password is asked for each time and the engine wipes the array it gets, so a fresh copy.
                sslConnector(tls.keyStore(), tls.alias(), { tls.password().toCharArray() }, { tls.password().toCharArray() }) {
                    host = env.host()
                    port = env.port()
                }
            }
            connectionGroupSize = env.workers() / 2 + 1
            workerGroupSize = env.workers() / 2 + 1
            callGroupSize = env.workers()
        },
    )
    // embeddedServer's start registers a JVM shutdown hook that stops the engine (SIGTERM from the harness).
    server.start(wait = true)
}

/** Every route, in Ktor's routing DSL, with Ktor's plugins for JSON, HTML, sessions and WebSocket. */
fun Application.serveWorkloads(env: Env, pool: HikariDataSource, workloads: JdbcWorkloads) {
    // JDBC blocks its thread, so database work leaves the call threads for a dispatcher of as many threads as
    // the pool has connections: kotlinx.coroutines' documented way to give a blocking connection pool its own
    // threads (Dispatchers.IO.limitedParallelism), so no more requests block than connections can serve them.
    val database = Dispatchers.IO.limitedParallelism(env.dbPool(), "jdbc")
    val hashFile = Path.of(env.hashFile())
    monitor.subscribe(ApplicationStopped) { pool.close() }

    install(ServerAndDate)
    install(ContentNegotiation) { json(JSON) }
    install(WebSockets)
    // Ktor's own defaults: gzip, deflate and identity as Accept-Encoding asks, answers of 200 bytes or more,
    // Vary: Accept-Encoding on what it encodes (ktor.io/docs/server-compression.html).
    install(Compression)

    routing {
        get("/plaintext") { call.respondText("Hello, World!") }
        get("/async") {
            delay(Async.WAIT.toKotlinDuration())
            call.respondText("Hello, World!")
        }
        get("/json") { call.respond(Message("Hello, World!")) }
        get("/json-comp") {
            val n = call.request.queryParameters["n"]?.toIntOrNull()?.coerceIn(1, 1000) ?: 1
            call.respond(List(n) { Item(it + 1, "Hello, World!") })
        }
        uploadRoute()
        databaseRoutes(workloads, database)
        itemRoutes(JdbcItems(pool), database)
        sessionRoute(PostgresSessionStorage(pool, database))
        get("/hash") {
            val n = call.request.queryParameters["n"]
            val reason = Hashing.reason(n)
            if (reason != null) {
                call.respondText(reason, status = HttpStatusCode.BadRequest)
            } else {
                // The file is read from disk on every request: blocking I/O, so on Dispatchers.IO.
                call.respondText(withContext(Dispatchers.IO) { Hashing.hex(hashFile, n!!.toInt()) })
            }
        }
        staticFiles("/static", File(env.staticDir()))
        webSocket("/ws") {
            for (frame in incoming) {
                if (frame is Frame.Text) send(Frame.Text(frame.readText()))
            }
        }
    }
}
