package webshootout.ziohttp

import java.nio.file.Path
import java.util.concurrent.Executors

import zio.*
import zio.http.*
import zio.http.netty.NettyConfig

import com.zaxxer.hikari.{HikariConfig, HikariDataSource}

import webshootout.common.{Env, JdbcSessions, JdbcWorkloads, TlsFiles}

/**
 * ZIO HTTP's Netty server in production form, as a ZIOAppDefault: Server.customized with Netty's worker event
 * loops at WORKERS (NettyConfig.maxThreads), handlers on ZIO's default executor (one worker per available
 * processor: the CPUs the harness pins the JVM to, WORKERS), a 5 s graceful shutdown (the default 10 s is the
 * harness's whole stop budget), and ZIO's log at WARNING (ZIO HTTP logs no requests).
 */
object Main extends ZIOAppDefault:
  private val env = Env.fromSystem()

  override val bootstrap: ZLayer[ZIOAppArgs, Any, Any] =
    Runtime.removeDefaultLoggers >>> Runtime.addLogger(ZLogger.default.map(println).filterLogLevel(_ >= LogLevel.Warning))

  def run: ZIO[Any, Throwable, Unit] =
    ZIO.scoped {
      for
        pool <- ZIO.acquireRelease(ZIO.attemptBlocking(HikariDataSource(HikariConfig(env.hikari()))))(pool =>
          ZIO.succeed(pool.close()))
        // cached's copy of world is read here, at start, after the harness has seeded the table.
        workloads <- ZIO.attemptBlocking(JdbcWorkloads(pool))
        sessions = JdbcSessions(pool, SessionJson.parse, SessionJson.format)
        // JDBC blocks its thread: one thread per pooled connection, so no more requests block than it can serve.
        jdbc <- ZIO.acquireRelease(ZIO.succeed(Executors.newFixedThreadPool(env.dbPool)))(threads =>
          ZIO.succeed(threads.shutdown()))
        routes = Workloads(workloads, sessions, Path.of(env.hashFile), env.staticDir,
          Executor.fromJavaExecutor(jdbc)).routes
        _ <- Server.serve(routes).provide(
          ZLayer.succeed(config),
          ZLayer.succeed(NettyConfig.default.maxThreads(env.workers)),
          Server.customized,
        )
      yield ()
    }

  /** TLS_CERT and TLS_KEY set: TLS on PORT from the PEM files (Netty's SslContext); unset: cleartext. */
  private def config: Server.Config =
    val plain = Server.Config.default.binding(env.host, env.port).gracefulShutdownTimeout(5.seconds)
    Option(TlsFiles.fromEnv()).fold(plain)(files => plain.ssl(SSLConfig.fromFile(files.cert, files.key)))
