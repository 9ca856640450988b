package webshootout.pekkohttp

import java.nio.file.Path
import java.security.MessageDigest
import java.util.HexFormat

import scala.concurrent.{ExecutionContext, Future}
import scala.jdk.CollectionConverters.*
import scala.jdk.DurationConverters.*

import org.apache.pekko.actor.ActorSystem

import org.apache.pekko.http.scaladsl.marshalling.{Marshaller, ToEntityMarshaller}
import org.apache.pekko.http.scaladsl.marshallers.sprayjson.SprayJsonSupport.*
import org.apache.pekko.http.scaladsl.model.{MediaTypes, StatusCodes}
import org.apache.pekko.http.scaladsl.model.headers.{`Content-Encoding`, HttpCookie, RawHeader, SameSite}
import org.apache.pekko.http.scaladsl.model.ws.{BinaryMessage, Message => WsMessage, TextMessage}
import org.apache.pekko.http.scaladsl.server.Directives.*
import org.apache.pekko.http.scaladsl.server.{Directive0, Route}
import org.apache.pekko.pattern.after
import org.apache.pekko.stream.scaladsl.{Flow, Sink}
import play.twirl.api.Html
import spray.json.*

import webshootout.common.{Async, Hashing, JdbcItems, JdbcSessions, JdbcWorkloads}
import webshootout.pekkohttp.Json.{given, *}

/**
 * Every workload in Pekko HTTP's routing DSL. Blocking work leaves the default dispatcher as Pekko's
 * documentation asks: JDBC (the shared JdbcWorkloads, JdbcSessions and JdbcItems on HikariCP) runs on `jdbc`, the hash
 * file's read and digest chain on Pekko's own default-blocking-io-dispatcher (`blockingIo`), and the route
 * completes with the Future.
 */
final class Routes(workloads: JdbcWorkloads, sessions: JdbcSessions, items: JdbcItems, hashFile: Path, staticDir: String,
                   jdbc: ExecutionContext, blockingIo: ExecutionContext)(using system: ActorSystem):

  // Twirl's Html as text/html; Pekko HTTP adds the charset it negotiates, UTF-8 by default.
  private given ToEntityMarshaller[Html] = Marshaller.StringMarshaller.wrap(MediaTypes.`text/html`)(_.body)

  // Pekko HTTP's encodeResponse over every route, as its Encoding/Decoding documentation wraps a route: gzip or
  // deflate as Accept-Encoding asks (NoCoding without it; no br among Pekko's coders), at the coders' default
  // level, for compressible media types. It names no Vary, so the encoded answers get Vary: Accept-Encoding here.
  val route: Route = (varyOnEncoding & encodeResponse) {
    concat(get(gets), path("upload")(post(upload)), Items(items, jdbc).route)
  }

  private def gets: Route =
    concat(
      path("plaintext")(complete("Hello, World!")),
      // Pekko's scheduler completes the Future after the wait; no dispatcher thread is held meanwhile.
      path("async")(complete(after(Async.WAIT.toScala)(Future.successful("Hello, World!")))),
      path("json")(complete(Message("Hello, World!"))),
      path("json-comp") {
        parameter("n".as[Int].optional) { n =>
          complete((1 to n.getOrElse(1).max(1).min(1000)).map(Item(_, "Hello, World!")).toVector)
        }
      },
      path("db")(complete(Future(workloads.db())(using jdbc))),
      path("queries") {
        parameter("queries".optional) { count =>
          complete(Future(workloads.queries(count.orNull).asScala.toVector)(using jdbc))
        }
      },
      path("updates") {
        parameter("queries".optional) { count =>
          complete(Future(workloads.updates(count.orNull).asScala.toVector)(using jdbc))
        }
      },
      path("fortunes") {
        complete(Future(workloads.fortunes())(using jdbc).map(rows => html.fortunes(rows.asScala.toSeq))(using jdbc))
      },
      // From the in-memory copy of world, on the route's own thread: nothing blocks.
      path("cached-queries") {
        parameter("count".optional)(count => complete(workloads.cached(count.orNull).asScala.toVector))
      },
      path("session")(session),
      path("hash")(hash),
      pathPrefix("static")(getFromDirectory(staticDir)),
      path("ws")(handleWebSocketMessages(echo)),
    )

  private def varyOnEncoding: Directive0 = mapResponse { response =>
    if response.header[`Content-Encoding`].isDefined then response.addHeader(RawHeader("Vary", "Accept-Encoding"))
    else response
  }

  /**
   * upload and upload-chunked: the entity's byte stream (Content-Length or chunked alike) folded into SHA-256 as it
   * arrives. pekko.http.server.parsing.max-content-length (application.conf) fails the stream past 2 MiB, which
   * Pekko HTTP's default exception handler answers with 413.
   */
  private def upload: Route =
    extractDataBytes { bytes =>
      val digest = MessageDigest.getInstance("SHA-256")
      val read = bytes.runFold(0L) { (total, chunk) =>
        chunk.asByteBuffers.foreach(buffer => digest.update(buffer))
        total + chunk.length
      }
      onSuccess(read)(total => complete(s"$total ${HexFormat.of().formatHex(digest.digest())}"))
    }

  /** The visitor in cookie uid; a new or unknown one gets a fresh uid, set by the response's cookie. */
  private def session: Route =
    optionalCookie(JdbcSessions.COOKIE) { cookie =>
      onSuccess(Future(sessions.visit(cookie.map(_.value).orNull))(using jdbc)) { visit =>
        val answer = complete(s"Count is ${visit.count}")
        Option(visit.newUid).fold(answer) { uid =>
          setCookie(HttpCookie(JdbcSessions.COOKIE, uid, path = Some("/"), httpOnly = true).withSameSite(SameSite.Lax))(answer)
        }
      }
    }

  private def hash: Route =
    parameter("n".optional) { n =>
      Option(Hashing.reason(n.orNull)) match
        case Some(reason) => complete(StatusCodes.BadRequest, reason)
        // The file is read from disk on every request.
        case None => complete(Future(Hashing.hex(hashFile, n.get.toInt))(using blockingIo))
    }

  /** Each text message back as it came (strict or streamed); binary ones are read and dropped. */
  private val echo: Flow[WsMessage, WsMessage, Any] =
    Flow[WsMessage].mapConcat {
      case text: TextMessage => text :: Nil
      case binary: BinaryMessage =>
        binary.dataStream.runWith(Sink.ignore)
        Nil
    }

/** The session column's JSON, by spray-json, for the shared session transaction. */
object SessionJson:
  def parse(text: String): JdbcSessions.Data = JdbcSessions.Data(text.parseJson.convertTo[SessionData].count)
  def format(data: JdbcSessions.Data): String = SessionData(data.count).toJson.compactPrint
