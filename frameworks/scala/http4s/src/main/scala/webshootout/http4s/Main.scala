package webshootout.http4s

import java.nio.file.Path

import scala.concurrent.duration.*

import cats.effect.{ExitCode, IO, IOApp, Resource}
import com.comcast.ip4s.{Host, Port}
import fs2.io.net.Network
import org.http4s.ember.server.EmberServerBuilder
import org.typelevel.otel4s.metrics.Meter
import org.typelevel.otel4s.trace.Tracer
import skunk.Session

import webshootout.common.Env
import webshootout.scalacommon.Tls

/**
 * http4s on its Ember server in production form, as an IOApp: cats-effect's runtime with WORKERS compute
 * threads (IOApp's computeWorkerThreadCount; its default is max(2, CPUs)), which also poll the sockets; no
 * request Logger middleware (no access log); Ember's defaults but HTTP/2 on (withHttp2) and a 5 s shutdown
 * (its default 30 s outlasts the harness's 10 s stop).
 */
object Main extends IOApp:
  private val env = Env.fromSystem()

  override protected def computeWorkerThreadCount: Int = env.workers

  def run(args: List[String]): IO[ExitCode] =
    // Skunk's telemetry (otel4s) switched off, as its documentation shows for a program that does not use it.
    given Tracer[IO] = Tracer.noop
    given Meter[IO] = Meter.noop
    val server = for
      pool <- Session.Builder[IO]
        .withHost(env.pgHost).withPort(env.pgPort)
        .withUserAndPassword(env.pgUser, env.pgPassword).withDatabase(env.pgDatabase)
        .pooled(env.dbPool)
      database <- Resource.eval(Database.load(pool))
      routes = Routes(database, Path.of(env.hashFile), env.staticDir)
      tls <- Resource.eval(IO(Tls.fromEnv()))
      plain = EmberServerBuilder.default[IO]
        .withHost(Host.fromString(env.host).get).withPort(Port.fromInt(env.port).get)
        .withHttp2
        .withShutdownTimeout(5.seconds)
        .withHttpWebSocketApp(routes.app)
      // TLS_CERT and TLS_KEY set: TLS only on PORT (h2 and http/1.1 by ALPN); unset: cleartext.
      served <- tls.fold(plain)(context => plain.withTLS(Network[IO].tlsContext.fromSSLContext(context))).build
    yield served
    server.useForever
