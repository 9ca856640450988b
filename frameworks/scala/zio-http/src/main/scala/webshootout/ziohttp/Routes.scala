package webshootout.ziohttp

import java.io.File
import java.nio.file.Path as FilePath

import scala.jdk.CollectionConverters.*

import zio.*
import zio.http.*
import zio.json.*

import webshootout.common.{Hashing, JdbcSessions, JdbcWorkloads}
import webshootout.ziohttp.Json.given

/**
 * Every workload as ZIO HTTP routes. JDBC (the shared JdbcWorkloads and JdbcSessions on HikariCP) blocks its
 * thread, so it runs on `jdbc`, an executor of one thread per pooled connection; the hash file's read and digest
 * chain on ZIO's blocking pool (ZIO.attemptBlocking); the rest on ZIO's default executor.
 */
final class Workloads(workloads: JdbcWorkloads, sessions: JdbcSessions, hashFile: FilePath, staticDir: String,
                      jdbc: Executor):

  val routes: Routes[Any, Nothing] =
    Routes(
      Method.GET / "plaintext" -> handler(text("Hello, World!")),
      Method.GET / "json" -> handler(Response.json(Message("Hello, World!").toJson)),
      Method.GET / "db" -> handler(database(workloads.db()).map(row => Response.json(row.toJson))),
      Method.GET / "queries" -> handler { (request: Request) =>
        rows(workloads.queries(request.queryParam("queries").orNull))
      },
      Method.GET / "updates" -> handler { (request: Request) =>
        rows(workloads.updates(request.queryParam("queries").orNull))
      },
      Method.GET / "fortunes" -> handler {
        database(workloads.fortunes()).map(rows => html(Fortunes.page(rows.asScala)))
      },
      // From the in-memory copy of world: nothing blocks.
      Method.GET / "cached-queries" -> handler { (request: Request) =>
        Response.json(workloads.cached(request.queryParam("count").orNull).asScala.toList.toJson)
      },
      Method.GET / "session" -> handler(session),
      Method.GET / "hash" -> handler(hash),
      Method.GET / "ws" -> handler(Echo.socket.toResponse),
    ).handleError(error => Response.internalServerError(error.toString))
      @@ Middleware.serveDirectory(Path.empty / "static", File(staticDir))
      // ZIO HTTP sets Date (NettyResponseEncoder) but no Server header.
      @@ Middleware.addHeader(Header.Server("zio-http"))

  private def database[A](work: => A): Task[A] = ZIO.attempt(work).onExecutor(jdbc)

  private def rows(work: => java.util.List[webshootout.common.World]): Task[Response] =
    database(work).map(found => Response.json(found.asScala.toList.toJson))

  /** The visitor in cookie uid; a new or unknown one gets a fresh uid, set by the response's cookie. */
  private def session(request: Request): Task[Response] =
    val uid = request.cookie(JdbcSessions.COOKIE).map(_.content)
    database(sessions.visit(uid.orNull)).map { visit =>
      val answer = text(s"Count is ${visit.count}")
      Option(visit.newUid).fold(answer) { fresh =>
        answer.addCookie(Cookie.Response(JdbcSessions.COOKIE, fresh, path = Some(Path.root), isHttpOnly = true,
          sameSite = Some(Cookie.SameSite.Lax)))
      }
    }

  private def hash(request: Request): Task[Response] =
    val n = request.queryParam("n")
    Option(Hashing.reason(n.orNull)) match
      case Some(reason) => ZIO.succeed(text(reason).status(Status.BadRequest))
      // The file is read from disk on every request.
      case None => ZIO.attemptBlocking(Hashing.hex(hashFile, n.get.toInt)).map(text)

  private val textType = Headers(Header.ContentType(MediaType.text.plain, charset = Some(Charsets.Utf8)))
  private val htmlType = Headers(Header.ContentType(MediaType.text.html, charset = Some(Charsets.Utf8)))

  // Response.text and Response.html name no charset; the contract's text/plain and fortunes' text/html do.
  private def text(body: String): Response = Response(Status.Ok, textType, Body.fromString(body))
  private def html(page: zio.http.template2.Dom): Response =
    Response(Status.Ok, htmlType, Body.fromString("<!DOCTYPE html>" + page.render))

/** The session column's JSON, by zio-json, for the shared session transaction. */
object SessionJson:
  def parse(text: String): JdbcSessions.Data =
    text.fromJson[SessionData].fold(error => throw IllegalArgumentException(error), data => JdbcSessions.Data(data.count))
  def format(data: JdbcSessions.Data): String = SessionData(data.count).toJson
