package webshootout.pekkohttp

import spray.json.{DefaultJsonProtocol, JsNumber, JsObject, JsValue, RootJsonFormat, deserializationError}

import webshootout.common.World

/** json's body. */
final case class Message(message: String)

/** One of json-comp's objects. */
final case class Item(id: Int, message: String)

/** usersessions.data, {"count":N}. */
final case class SessionData(count: Int)

/**
 * spray-json formats, the JSON library of Pekko HTTP's documented JSON support (SprayJsonSupport turns them
 * into marshallers). Message and SessionData are case classes, so jsonFormat1 derives theirs; World is the Java
 * stacks' record (frameworks/java/common), whose format is written out.
 */
object Json extends DefaultJsonProtocol:
  given messageFormat: RootJsonFormat[Message] = jsonFormat1(Message.apply)
  given sessionDataFormat: RootJsonFormat[SessionData] = jsonFormat1(SessionData.apply)
  given itemFormat: RootJsonFormat[Item] = jsonFormat2(Item.apply)
  given itemsFormat: RootJsonFormat[Vector[Item]] = vectorFormat[Item]

  given worldFormat: RootJsonFormat[World] with
    def write(row: World): JsValue = JsObject("id" -> JsNumber(row.id), "randomNumber" -> JsNumber(row.randomNumber))
    // The server only sends World; nothing it receives is read as one.
    def read(value: JsValue): World = deserializationError("World is only sent, never read")

  // The rows of queries, updates and cached: named, because spray-json's collection formats for Scala 3 leave
  // a Vector's format ambiguous (vectorFormat, immSeqFormat, iterableFormat all fit).
  given worldsFormat: RootJsonFormat[Vector[World]] = vectorFormat[World]
