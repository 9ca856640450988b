package webshootout.http4s

import cats.effect.{IO, Resource}
import cats.syntax.all.*
import io.circe.Codec
import io.circe.syntax.*
import skunk.{Command, Query, Session, Void}
import skunk.codec.all.{int4, text}
import skunk.implicits.*

import webshootout.common.TechEmpower

/** A row of world, as db, queries, updates and cached answer it. */
final case class World(id: Int, randomNumber: Int) derives Codec.AsObject

/** A row of fortune. */
final case class Fortune(id: Int, message: String)

/** usersessions.data, {"count":N}. */
final case class SessionData(count: Int) derives Codec.AsObject

/**
 * The database workloads on Skunk's session pool: each request borrows a session (a PostgreSQL connection) for
 * its statements, prepared once per session (Skunk caches them) and run one after another. The ids, the count
 * parameter and the added fortune follow the Java stacks' TechEmpower rules (frameworks/java/common).
 */
final class Database private (pool: Resource[IO, Session[IO]], cache: IArray[World]):
  import Database.*

  def db: IO[World] =
    IO(TechEmpower.randomId()).flatMap(id => pool.use(_.unique(selectWorld)(id)))

  def queries(count: Int): IO[List[World]] =
    IO(TechEmpower.randomIds(count).toList).flatMap(ids => pool.use(read(_, ids)))

  /** Each row read by its own SELECT, then one autocommitted UPDATE per row, in id order. */
  def updates(count: Int): IO[List[World]] =
    IO(TechEmpower.randomIds(count).toList).flatMap { ids =>
      pool.use { session =>
        for
          rows <- read(session, ids)
          changed <- IO(rows.map(_.copy(randomNumber = TechEmpower.randomId())).sortBy(_.id))
          update <- session.prepare(updateWorld)
          _ <- changed.traverse_(row => update.execute((row.randomNumber, row.id)))
        yield changed
      }
    }

  def fortunes: IO[List[Fortune]] =
    pool.use(_.execute(selectFortunes)).map(rows => (Fortune(0, TechEmpower.EXTRA_FORTUNE) :: rows).sortBy(_.message))

  /** From memory: no query. */
  def cached(count: Int): IO[List[World]] =
    IO(List.fill(count)(cache(TechEmpower.randomId())))

  /**
   * session's transaction: the visitor's row locked, read and bumped, or a new visitor inserted at 1. The
   * answer is the new count and, for a new visitor, the uid to set in the cookie.
   */
  def visit(uid: Option[String]): IO[(Option[String], Int)] =
    pool.use { session =>
      session.transaction.use { _ =>
        uid.flatTraverse(session.option(selectSession)(_)).flatMap {
          case Some(data) =>
            for
              stored <- IO.fromEither(io.circe.jawn.decode[SessionData](data))
              count = stored.count + 1
              _ <- session.execute(updateSession)((SessionData(count).asJson.noSpaces, uid.get))
            yield (None, count)
          case None =>
            for
              fresh <- IO(java.util.UUID.randomUUID.toString)
              _ <- session.execute(insertSession)((fresh, SessionData(1).asJson.noSpaces))
            yield (Some(fresh), 1)
        }
      }
    }

  private def read(session: Session[IO], ids: List[Int]): IO[List[World]] =
    session.prepare(selectWorld).flatMap(select => ids.traverse(select.unique))

object Database:
  private val selectWorld: Query[Int, World] =
    sql"SELECT id, randomnumber FROM world WHERE id = $int4".query(int4 *: int4).to[World]
  private val updateWorld: Command[(Int, Int)] =
    sql"UPDATE world SET randomnumber = $int4 WHERE id = $int4".command
  private val allWorlds: Query[Void, World] =
    sql"SELECT id, randomnumber FROM world".query(int4 *: int4).to[World]
  private val selectFortunes: Query[Void, Fortune] =
    sql"SELECT id, message FROM fortune".query(int4 *: text).to[Fortune]
  private val selectSession: Query[String, String] =
    sql"SELECT data FROM usersessions WHERE uid = $text FOR UPDATE".query(text)
  private val updateSession: Command[(String, String)] =
    sql"UPDATE usersessions SET data = $text WHERE uid = $text".command
  private val insertSession: Command[(String, String)] =
    sql"INSERT INTO usersessions (uid, data) VALUES ($text, $text)".command

  /** The workloads on the pool, with cached's copy of world read now (at start, after the harness seeded it). */
  def load(pool: Resource[IO, Session[IO]]): IO[Database] =
    pool.use(_.execute(allWorlds)).flatMap { rows =>
      val byId = new Array[World](TechEmpower.WORLD_ROWS + 1)
      rows.foreach(row => byId(row.id) = row)
      (1 to TechEmpower.WORLD_ROWS).find(byId(_) == null) match
        case Some(id) => IO.raiseError(IllegalStateException(s"world has no row with id $id"))
        case None => IO.pure(Database(pool, IArray.unsafeFromArray(byId)))
    }
