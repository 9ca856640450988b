package models

import javax.inject.{Inject, Singleton}

import org.apache.pekko.actor.ActorSystem
import play.api.libs.concurrent.CustomExecutionContext

/** The dispatcher for JDBC, "database.dispatcher" in application.conf, as Play's database documentation has it. */
@Singleton
class DatabaseExecutionContext @Inject() (system: ActorSystem)
    extends CustomExecutionContext(system, "database.dispatcher")

/**
 * The hash workload's file read and digest chain (up to 100,000 rounds) stay off Play's default thread pool, on
 * Pekko's own dispatcher for blocking I/O, as Play's thread-pool page asks of blocking and CPU-heavy work.
 */
@Singleton
class BlockingIoExecutionContext @Inject() (system: ActorSystem)
    extends CustomExecutionContext(system, "pekko.actor.default-blocking-io-dispatcher")
