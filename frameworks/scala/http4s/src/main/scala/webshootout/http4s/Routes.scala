package webshootout.http4s

import java.nio.file.Path
import java.security.MessageDigest
import java.util.HexFormat

import cats.effect.IO
import cats.syntax.all.*
import fs2.Pipe
import io.circe.Codec
import org.http4s.{EntityEncoder, Headers, HttpApp, HttpRoutes, ProductId, Request, Response, ResponseCookie, SameSite}
import org.http4s.circe.jsonEncoderOf
import org.http4s.dsl.io.*
import org.http4s.headers.{`Content-Encoding`, Server}
import org.http4s.server.Router
import org.http4s.server.middleware.{Date, EntityLimiter, ErrorHandling, GZip, StaticHeaders}
import org.http4s.server.staticcontent.{FileService, fileService}
import org.http4s.server.websocket.WebSocketBuilder2
import org.http4s.websocket.WebSocketFrame

import webshootout.common.{Hashing, JdbcSessions, TechEmpower}
import webshootout.http4s.Fortunes.given

/** Request bodies up to this many bytes are read (the contract: 1 MiB accepted, 16 MiB refused). */
val UploadLimit: Long = 2L * 1024 * 1024

/** json's body. */
final case class Message(message: String) derives Codec.AsObject

/** One of json-comp's objects. */
final case class Item(id: Int, message: String) derives Codec.AsObject

object QueriesParam extends OptionalQueryParamDecoderMatcher[String]("queries")
object CountParam extends OptionalQueryParamDecoderMatcher[String]("count")
object NParam extends OptionalQueryParamDecoderMatcher[String]("n")

/**
 * Every workload as http4s routes (its DSL), JSON by circe (http4s-circe's encoders for the JSON bodies only, so
 * text stays text/plain), static files by http4s's fileService, WebSocket by Ember's WebSocketBuilder2. Ember
 * sends no Server header and adds Date on HTTP/1.1 only, not on HTTP/2 streams: http4s's StaticHeaders and Date
 * middlewares set them on every response (Ember's HTTP/1.1 path keeps the response's own Date).
 */
final class Routes(database: Database, hashFile: Path, staticDir: String):
  private given EntityEncoder[IO, Message] = jsonEncoderOf[IO, Message]
  private given EntityEncoder[IO, World] = jsonEncoderOf[IO, World]
  private given EntityEncoder[IO, List[World]] = jsonEncoderOf[IO, List[World]]
  private given itemsEncoder: EntityEncoder[IO, List[Item]] = jsonEncoderOf[IO, List[Item]]

  def app(websockets: WebSocketBuilder2[IO]): HttpApp[IO] =
    val router = Router("/static" -> fileService[IO](FileService.Config(staticDir)), "/" -> routes(websockets))
    // Request bodies past 2 MiB fail their stream with EntityTooLarge (http4s's EntityLimiter, its own default
    // size named here), which ErrorHandling.Recover.messageFailure answers 413 (Ember's own error handler would say
    // 500). http4s's GZip middleware at its defaults compresses as Accept-Encoding asks.
    val limited = ErrorHandling.Recover.messageFailure(EntityLimiter.httpApp(router.orNotFound, UploadLimit))
    Date.httpApp(StaticHeaders(Headers(Server(ProductId("http4s"))))(varyOnEncoding(GZip(limited))))

  /** http4s's GZip names no Vary; what it encoded depends on Accept-Encoding, so caches are told. */
  private def varyOnEncoding(app: HttpApp[IO]): HttpApp[IO] = app.map { response =>
    if response.headers.contains[`Content-Encoding`] then response.putHeaders("Vary" -> "Accept-Encoding")
    else response
  }

  private def routes(websockets: WebSocketBuilder2[IO]): HttpRoutes[IO] = HttpRoutes.of[IO] {
    case GET -> Root / "plaintext" => Ok("Hello, World!")
    case GET -> Root / "json" => Ok(Message("Hello, World!"))
    case GET -> Root / "json-comp" :? NParam(n) =>
      val items = n.flatMap(_.toIntOption).getOrElse(1).max(1).min(1000)
      Ok(List.tabulate(items)(i => Item(i + 1, "Hello, World!")))
    case request @ POST -> Root / "upload" => upload(request)
    case GET -> Root / "db" => database.db.flatMap(Ok(_))
    case GET -> Root / "queries" :? QueriesParam(n) => database.queries(count(n)).flatMap(Ok(_))
    case GET -> Root / "updates" :? QueriesParam(n) => database.updates(count(n)).flatMap(Ok(_))
    case GET -> Root / "fortunes" => database.fortunes.flatMap(rows => Ok(Fortunes.page(rows)))
    case GET -> Root / "cached-queries" :? CountParam(n) => database.cached(count(n)).flatMap(Ok(_))
    case request @ GET -> Root / "session" => session(request)
    case GET -> Root / "hash" :? NParam(n) =>
      Option(Hashing.reason(n.orNull)) match
        case Some(reason) => BadRequest(reason)
        // The file is read from disk on every request: blocking I/O, so on cats-effect's blocking pool.
        case None => IO.blocking(Hashing.hex(hashFile, n.get.toInt)).flatMap(Ok(_))
    case GET -> Root / "ws" => websockets.build(echo)
  }

  private def count(raw: Option[String]): Int = TechEmpower.count(raw.orNull)

  /** upload and upload-chunked: the body's chunks (Content-Length or chunked alike) into SHA-256 as they arrive. */
  private def upload(request: Request[IO]): IO[Response[IO]] =
    IO(MessageDigest.getInstance("SHA-256")).flatMap { digest =>
      request.body.chunks.compile.fold(0L) { (read, chunk) =>
        val bytes = chunk.toArraySlice
        digest.update(bytes.values, bytes.offset, bytes.length)
        read + bytes.length
      }.flatMap(read => Ok(s"$read ${HexFormat.of().formatHex(digest.digest())}"))
    }

  /** The visitor in cookie uid; a new or unknown one gets a fresh uid, set by the response's cookie. */
  private def session(request: Request[IO]): IO[Response[IO]] =
    val uid = request.cookies.find(_.name == JdbcSessions.COOKIE).map(_.content)
    database.visit(uid).flatMap { (fresh, count) =>
      Ok(s"Count is $count").map { response =>
        fresh.fold(response) { id =>
          response.addCookie(ResponseCookie(JdbcSessions.COOKIE, id, path = Some("/"), httpOnly = true,
            sameSite = Some(SameSite.Lax)))
        }
      }
    }

  /** Each text message back as it came (the builder reassembles fragmented ones); other frames are dropped. */
  private val echo: Pipe[IO, WebSocketFrame, WebSocketFrame] =
    _.collect { case WebSocketFrame.Text(text, _) => WebSocketFrame.Text(text) }
