package webshootout.pekkohttp

import scala.concurrent.{ExecutionContext, Future}
import scala.jdk.CollectionConverters.*

import org.apache.pekko.http.scaladsl.marshallers.sprayjson.SprayJsonSupport.*
import org.apache.pekko.http.scaladsl.model.StatusCodes
import org.apache.pekko.http.scaladsl.model.headers.Location
import org.apache.pekko.http.scaladsl.server.Directives.*
import org.apache.pekko.http.scaladsl.server.{Directive1, MalformedRequestContentRejection, RejectionHandler, Route}
import spray.json.DeserializationException

import webshootout.common.{JdbcItems, Item => StoredItem}
import webshootout.pekkohttp.Json.given

/**
 * crud on table items in Pekko HTTP's routing DSL: per-method directives on /items and /items/{id}, the body
 * unmarshalled by spray-json (entity(as[NewItem])), rows by JDBC (common JdbcItems) on the `jdbc` dispatcher.
 * Pekko's default rejection handler answers 400 to a query parameter that is not an Int, a failed validate and a
 * body that is not JSON; only a body of the wrong shape is mapped, to 422.
 */
final class Items(items: JdbcItems, jdbc: ExecutionContext):

  val route: Route =
    pathPrefix("items") {
      concat(
        pathEndOrSingleSlash {
          concat(
            get(page),
            post {
              body { item =>
                onSuccess(Future(items.create(item.name, item.quantity))(using jdbc)) { created =>
                  respondWithHeader(Location(s"/items/${created.id}")) {
                    complete(StatusCodes.Created, created)
                  }
                }
              }
            },
          )
        },
        path(IntNumber) { id =>
          concat(
            get(found(Future(Option(items.find(id)))(using jdbc))),
            put {
              body(item => found(Future(Option(items.update(id, item.name, item.quantity)))(using jdbc)))
            },
            delete {
              onSuccess(Future(items.delete(id))(using jdbc)) { deleted =>
                complete(if deleted then StatusCodes.NoContent else StatusCodes.NotFound)
              }
            },
          )
        },
      )
    }

  private def page: Route =
    parameters("page".as[Int].withDefault(StoredItem.FIRST_PAGE), "size".as[Int].withDefault(StoredItem.DEFAULT_SIZE)) {
      (page, size) =>
        validate(page >= StoredItem.FIRST_PAGE && size >= 1 && size <= StoredItem.MAX_SIZE,
          s"page must be 1 or more, size 1 to ${StoredItem.MAX_SIZE}") {
          complete(Future(items.page(page, size).asScala.toVector)(using jdbc))
        }
    }

  private def found(item: Future[Option[StoredItem]]): Route =
    onSuccess(item) {
      case Some(row) => complete(row)
      case None => complete(StatusCodes.NotFound)
    }

  // spray-json's reader refuses a JSON value of the wrong shape with a DeserializationException, which the entity
  // directive wraps in MalformedRequestContentRejection like a parse error; the contract answers it 422, the
  // rest falls through to the default handler (400).
  private val wrongShape = RejectionHandler.newBuilder()
    .handle { case MalformedRequestContentRejection(message, _: DeserializationException) =>
      complete(StatusCodes.UnprocessableContent, message)
    }
    .result()

  private def body: Directive1[NewItem] = handleRejections(wrongShape) & entity(as[NewItem])
