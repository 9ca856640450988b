package webshootout.http4s

import java.nio.file.Path

import cats.effect.IO
import cats.syntax.all.*
import fs2.Pipe
import io.circe.Codec
import org.http4s.{EntityEncoder, Headers, HttpApp, HttpRoutes, ProductId, Request, Response, ResponseCookie, SameSite}
import org.http4s.circe.jsonEncoderOf
import org.http4s.dsl.io.*
import org.http4s.headers.Server
import org.http4s.server.Router
import org.http4s.server.middleware.{Date, StaticHeaders}
import org.http4s.server.staticcontent.{FileService, fileService}
import org.http4s.server.websocket.WebSocketBuilder2
import org.http4s.websocket.WebSocketFrame

import webshootout.common.{Hashing, JdbcSessions, TechEmpower}
import webshootout.http4s.Fortunes.given

/** json's body. */
final case class Message(message: String) derives Codec.AsObject

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

  def app(websockets: WebSocketBuilder2[IO]): HttpApp[IO] =
    val router = Router("/static" -> fileService[IO](FileService.Config(staticDir)), "/" -> routes(websockets))
    Date.httpApp(StaticHeaders(Headers(Server(ProductId("http4s"))))(router.orNotFound))

  private def routes(websockets: WebSocketBuilder2[IO]): HttpRoutes[IO] = HttpRoutes.of[IO] {
    case GET -> Root / "plaintext" => Ok("Hello, World!")
    case GET -> Root / "json" => Ok(Message("Hello, World!"))
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
