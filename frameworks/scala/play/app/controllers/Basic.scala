package controllers

import java.nio.file.Path
import javax.inject.{Inject, Singleton}

import scala.concurrent.Future
import scala.concurrent.duration.*

import play.api.Configuration
import play.api.libs.concurrent.Futures
import play.api.libs.json.Json
import play.api.mvc.*

import models.BlockingIoExecutionContext
import models.JsonWrites.{given, *}
import webshootout.common.Hashing

/** The workloads without a database. Play's Writeable gives a String text/plain; charset=utf-8. */
@Singleton
class Basic @Inject() (cc: ControllerComponents, futures: Futures, config: Configuration,
                       blockingIo: BlockingIoExecutionContext) extends AbstractController(cc):
  private val hashFile = Path.of(config.get[String]("webshootout.hash-file"))

  def plaintext: Action[AnyContent] = Action(Ok("Hello, World!"))

  def json: Action[AnyContent] = Action(Ok(Json.toJson(Message("Hello, World!"))))

  def hash(n: Option[String]): Action[AnyContent] = Action.async {
    Option(Hashing.reason(n.orNull)) match
      case Some(reason) => Future.successful(BadRequest(reason))
      // The file is read from disk on every request.
      case None => Future(Ok(Hashing.hex(hashFile, n.get.toInt)))(blockingIo)
  }

  /** Play's non-blocking delay (Futures.delayed, a Pekko scheduler timer): no thread waits the 15 ms. */
  def async: Action[AnyContent] = Action.async {
    futures.delayed(15.millis)(Future.successful(Ok("Hello, World!")))
  }
