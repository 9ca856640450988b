package controllers

import javax.inject.{Inject, Singleton}

import scala.concurrent.Future

import play.api.db.Database
import play.api.libs.json.Json
import play.api.mvc.*

import models.DatabaseExecutionContext
import webshootout.common.JdbcSessions

/**
 * session: the visitor's uid in Play's session cookie (signed with play.http.secret.key), the counter in table
 * usersessions by the shared transaction, whose column data ({"count":N}) play-json reads and writes. A request
 * without the cookie, or whose uid has no row, gets a new visitor and the cookie; a known one keeps its cookie.
 */
@Singleton
class Sessions @Inject() (cc: ControllerComponents, database: Database, dbContext: DatabaseExecutionContext)
    extends AbstractController(cc):
  private val Uid = "uid"

  private val visitors = JdbcSessions(
    database.dataSource,
    text => JdbcSessions.Data((Json.parse(text) \ "count").as[Int]),
    data => Json.stringify(Json.obj("count" -> data.count)),
  )

  def visit: Action[AnyContent] = Action.async { request =>
    Future(visitors.visit(request.session.get(Uid).orNull))(dbContext).map { visit =>
      val answer = Ok(s"Count is ${visit.count}")
      Option(visit.newUid).fold(answer)(uid => answer.withSession(request.session + (Uid -> uid)))
    }(defaultExecutionContext)
  }
