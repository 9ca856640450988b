package webshootout.http4k

import com.zaxxer.hikari.HikariConfig
import com.zaxxer.hikari.HikariDataSource
import org.eclipse.jetty.server.HttpConfiguration
import org.eclipse.jetty.server.Server
import org.eclipse.jetty.server.handler.SizeLimitHandler
import org.eclipse.jetty.util.thread.QueuedThreadPool
import org.http4k.core.PolyHandler
import org.http4k.routing.websocket.bind as wsBind
import org.http4k.routing.websockets
import org.http4k.server.Jetty
import org.http4k.server.asServer
import org.http4k.websocket.WsResponse
import webshootout.common.Env
import webshootout.common.JdbcWorkloads
import webshootout.common.PemKeyStore
import webshootout.common.jetty.Connectors
import java.nio.file.Path

/** http4k 6 on its Jetty server backend: one HttpHandler of routes, a WebSocket handler beside it (PolyHandler). */
fun main() {
    val env = Env.fromSystem()
    val tls = PemKeyStore.fromEnv()
    val pool = HikariDataSource(HikariConfig(env.hikari()))
    val app = App(JdbcWorkloads(pool), pool, Path.of(env.hashFile()), Path.of(env.staticDir()))

    val ws = websockets("/ws" wsBind { _ -> WsResponse { socket -> socket.onMessage { socket.send(it) } } })

    // Handlers block on JDBC, so Jetty's thread pool is sized as the jetty stack's: room for every pooled
    // connection's request plus the CPU-bound ones (Jetty's default is 200 threads).
    val maxThreads = maxOf(32, 16 * env.workers())
    val threads = QueuedThreadPool(maxThreads, minOf(8, maxThreads)).apply { name = "http" }
    val jetty = Server(threads)
    // The shared Jetty 12 connector (../common/jetty): WORKERS selectors; cleartext HTTP/1.1 with h2c, or TLS
    // with h2 and http/1.1 by ALPN when TLS_CERT/TLS_KEY are set. Jetty sends Server and Date by default.
    val connector = Connectors.connector(jetty, HttpConfiguration(), env.workers(), tls).apply {
        host = env.host()
        port = env.port()
        // Jetty's default 0 leaves the JDK's backlog of 50: as the jetty stack, 1024 (Jetty's High Load guide).
        acceptQueueSize = 1024
    }
    jetty.addConnector(connector)

    val server = PolyHandler(app.routes, ws = ws).asServer(Jetty(env.port(), jetty))
    // http4k has no request body limit of its own: Jetty's SizeLimitHandler around the handlers http4k gave the
    // server answers 413 to a Content-Length over 2 MiB and fails a chunked body's read past it (Jetty 12's
    // Handler guide, "SizeLimitHandler"; Jetty sets no limit by default). No response limit (-1).
    val handlers = jetty.handler
    jetty.handler = SizeLimitHandler(2L * 1024 * 1024, -1).apply { handler = handlers }
    server.start()
    Runtime.getRuntime().addShutdownHook(Thread {
        server.stop()
        pool.close()
    })
    jetty.join()
}
