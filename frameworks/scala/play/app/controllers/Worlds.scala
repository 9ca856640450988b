package controllers

import java.sql.Connection
import javax.inject.{Inject, Singleton}

import scala.concurrent.Future
import scala.jdk.CollectionConverters.*

import play.api.db.Database
import play.api.libs.json.Json
import play.api.mvc.*

import models.{DatabaseExecutionContext, WorldRows}
import models.JsonWrites.given
import webshootout.common.{JdbcWorlds, TechEmpower}

/**
 * TechEmpower's database workloads through Play's Database API (withConnection lends a pooled HikariCP
 * connection for the block) with the shared JDBC statements, each call a Future on the database dispatcher.
 */
@Singleton
class Worlds @Inject() (cc: ControllerComponents, database: Database, dbContext: DatabaseExecutionContext,
                        world: WorldRows) extends AbstractController(cc):
  private given scala.concurrent.ExecutionContext = defaultExecutionContext

  def db: Action[AnyContent] = Action.async {
    val id = TechEmpower.randomId()
    withConnection(JdbcWorlds.one(_, id)).map(row => Ok(Json.toJson(row)))
  }

  /** One SELECT per row, on one connection. */
  def queries(queries: Option[String]): Action[AnyContent] = Action.async {
    val ids = TechEmpower.randomIds(TechEmpower.count(queries.orNull))
    withConnection(JdbcWorlds.read(_, ids)).map(rows => Ok(Json.toJson(rows.asScala.toSeq)))
  }

  /** The rows read one by one, renumbered and sorted by id, then one UPDATE per row sent as one JDBC batch, each
   *  autocommitted (Play's pool default), so concurrent requests cannot deadlock. */
  def updates(queries: Option[String]): Action[AnyContent] = Action.async {
    val ids = TechEmpower.randomIds(TechEmpower.count(queries.orNull))
    withConnection { connection =>
      val rows = TechEmpower.renumbered(JdbcWorlds.read(connection, ids))
      JdbcWorlds.write(connection, rows)
      rows
    }.map(rows => Ok(Json.toJson(rows.asScala.toSeq)))
  }

  /** Every fortune by one query, the added one, sorted; rendered by the Twirl template (HTML-escaped). */
  def fortunes: Action[AnyContent] = Action.async {
    withConnection(JdbcWorlds.fortunes).map { read =>
      Ok(views.html.fortunes(TechEmpower.withExtraSorted(read).asScala.toSeq))
    }
  }

  /** From the in-process copy of world: no query, nothing blocks, so it answers on Play's default pool. */
  def cached(count: Option[String]): Action[AnyContent] = Action {
    Ok(Json.toJson(world.cache.random(TechEmpower.count(count.orNull)).asScala.toSeq))
  }

  private def withConnection[A](work: Connection => A): Future[A] =
    Future(database.withConnection(work))(dbContext)
