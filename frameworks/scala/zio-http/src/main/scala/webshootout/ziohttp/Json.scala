package webshootout.ziohttp

import zio.json.{DeriveJsonDecoder, DeriveJsonEncoder, JsonDecoder, JsonEncoder}

import webshootout.common.World

/** json's body. */
final case class Message(message: String) derives JsonEncoder

/** usersessions.data, {"count":N}. */
final case class SessionData(count: Int)

/**
 * zio-json codecs. World is the Java stacks' record (frameworks/java/common), encoded through a case class of
 * the same fields, whose encoder zio-json derives.
 */
object Json:
  private final case class WorldFields(id: Int, randomNumber: Int) derives JsonEncoder

  given JsonEncoder[World] = JsonEncoder[WorldFields].contramap(row => WorldFields(row.id, row.randomNumber))
  given JsonEncoder[SessionData] = DeriveJsonEncoder.gen[SessionData]
  given JsonDecoder[SessionData] = DeriveJsonDecoder.gen[SessionData]
