package webshootout.pekkohttp

import spray.json.{DefaultJsonProtocol, JsNumber, JsObject, JsString, JsValue, RootJsonFormat, RootJsonReader,
  deserializationError}

import webshootout.common.{World, Item => StoredItem}

/** json's body. */
final case class Message(message: String)

/** One of json-comp's objects. */
final case class Item(id: Int, message: String)

/** The body of crud's POST and PUT: an item without its id. */
final case class NewItem(name: String, quantity: Int)

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

  // crud's row is the Java stacks' record (frameworks/java/common), written out like World.
  given storedItemFormat: RootJsonFormat[StoredItem] with
    def write(item: StoredItem): JsValue =
      JsObject("id" -> JsNumber(item.id), "name" -> JsString(item.name), "quantity" -> JsNumber(item.quantity))
    def read(value: JsValue): StoredItem = deserializationError("a stored item is only sent; bodies are NewItem")
  given storedItemsFormat: RootJsonFormat[Vector[StoredItem]] = vectorFormat[StoredItem]

  // Written out rather than jsonFormat2: spray-json's IntJsonFormat takes any number and truncates it (1.5 as 1,
  // 2^32 wrapped), where the contract refuses a quantity that is not a 32-bit integer. Its refusals are
  // DeserializationExceptions, which Items answers 422; text that is not JSON fails earlier, in the parser (400).
  given newItemReader: RootJsonReader[NewItem] with
    def read(value: JsValue): NewItem = value match
      case JsObject(fields) =>
        (fields.get("name"), fields.get("quantity")) match
          case (Some(JsString(name)), Some(JsNumber(quantity))) if quantity.scale <= 0 && quantity.isValidInt =>
            NewItem(name, quantity.toInt)
          case _ => deserializationError("an item needs a string name and a 32-bit integer quantity")
      case _ => deserializationError("an item is a JSON object")

  // The rows of queries, updates and cached: named, because spray-json's collection formats for Scala 3 leave
  // a Vector's format ambiguous (vectorFormat, immSeqFormat, iterableFormat all fit).
  given worldsFormat: RootJsonFormat[Vector[World]] = vectorFormat[World]
