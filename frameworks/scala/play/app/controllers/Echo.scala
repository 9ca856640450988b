package controllers

import javax.inject.{Inject, Singleton}

import org.apache.pekko.stream.scaladsl.Flow
import play.api.mvc.*

/** websocket: Play's Flow-based WebSocket API; the flow gives each text message back as it came. */
@Singleton
class Echo @Inject() (cc: ControllerComponents) extends AbstractController(cc):
  def socket: WebSocket = WebSocket.accept[String, String](_ => Flow[String])
