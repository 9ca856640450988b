package models

import java.sql.Connection
import javax.inject.{Inject, Singleton}

import play.api.db.Database

import webshootout.common.{JdbcWorlds, WorldCache}

/**
 * cached's in-process copy of world (the Java stacks' WorldCache, an array by id), read once when Guice builds
 * it: at start, since Play's production mode creates its singletons eagerly, after the harness seeded the table.
 */
@Singleton
class WorldRows @Inject() (db: Database):
  val cache: WorldCache = db.withConnection((connection: Connection) => WorldCache(JdbcWorlds.all(connection)))
