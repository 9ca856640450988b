package webshootout.pekkohttp

import java.nio.file.Path

import scala.concurrent.duration.*
import scala.util.{Failure, Success}

import com.zaxxer.hikari.{HikariConfig, HikariDataSource}
import org.apache.pekko.actor.ActorSystem
import org.apache.pekko.dispatch.Dispatchers
import org.apache.pekko.http.scaladsl.{ConnectionContext, Http}

import webshootout.common.{Env, JdbcItems, JdbcSessions, JdbcWorkloads}
import webshootout.scalacommon.Tls

/**
 * Pekko HTTP's own server in production form: bound by Http().newServerAt(...).bind(route) as its documentation
 * shows, Pekko's settings in application.conf (WARNING log level, no access log, WORKERS dispatcher threads,
 * HTTP/2 on), and stopped by Pekko's coordinated shutdown, which the JVM's shutdown hook (SIGTERM) runs.
 */
object Main:
  def main(args: Array[String]): Unit =
    val env = Env.fromSystem()
    // The pool and cached's copy of world (read here, after the harness has seeded the table) come before the
    // actor system, whose threads would keep a JVM whose database is unreachable from exiting.
    val pool = HikariDataSource(HikariConfig(env.hikari()))
    val workloads = JdbcWorkloads(pool)
    val sessions = JdbcSessions(pool, SessionJson.parse, SessionJson.format)
    given system: ActorSystem = ActorSystem("webshootout")
    system.registerOnTermination(pool.close())
    val routes = Routes(workloads, sessions, JdbcItems(pool), Path.of(env.hashFile), env.staticDir,
      jdbc = system.dispatchers.lookup("jdbc-dispatcher"),
      blockingIo = system.dispatchers.lookup(Dispatchers.DefaultBlockingDispatcherId))

    val builder = Http().newServerAt(env.host, env.port)
    // TLS_CERT and TLS_KEY set: TLS only on PORT (h2 and http/1.1 by ALPN); unset: cleartext.
    val server = Tls.fromEnv().fold(builder)(context => builder.enableHttps(ConnectionContext.httpsServer(context)))
    server.bind(routes.route).onComplete {
      case Success(binding) => binding.addToCoordinatedShutdown(hardTerminationDeadline = 5.seconds)
      case Failure(error) =>
        system.log.error(error, "cannot bind {}:{}", env.host, env.port)
        system.terminate()
    }(using system.dispatcher)
