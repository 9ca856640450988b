package webshootout.ktor

import io.ktor.http.HttpHeaders
import io.ktor.http.HttpStatusCode
import io.ktor.server.plugins.BadRequestException
import io.ktor.server.request.receiveText
import io.ktor.server.response.header
import io.ktor.server.response.respond
import io.ktor.server.response.respondText
import io.ktor.server.routing.Route
import io.ktor.server.routing.RoutingCall
import io.ktor.server.routing.delete
import io.ktor.server.routing.get
import io.ktor.server.routing.post
import io.ktor.server.routing.put
import io.ktor.server.routing.route
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.withContext
import kotlinx.serialization.KSerializer
import kotlinx.serialization.Serializable
import kotlinx.serialization.SerializationException
import kotlinx.serialization.descriptors.PrimitiveKind
import kotlinx.serialization.descriptors.PrimitiveSerialDescriptor
import kotlinx.serialization.descriptors.SerialDescriptor
import kotlinx.serialization.encoding.Decoder
import kotlinx.serialization.encoding.Encoder
import kotlinx.serialization.json.Json
import kotlinx.serialization.json.JsonDecoder
import kotlinx.serialization.json.JsonElement
import kotlinx.serialization.json.JsonPrimitive
import webshootout.common.Item
import webshootout.common.JdbcItems

/**
 * A POST or PUT body, decoded by kotlinx.serialization: a missing member, a null, or a name that is not a JSON string
 * fails the generated serializer (BODIES is not lenient); quantity has a serializer of its own.
 */
@Serializable
data class ItemBody(val name: String, @Serializable(with = JsonIntSerializer::class) val quantity: Int)

/**
 * A JSON number without a fraction that fits 32 bits. kotlinx.serialization's Int takes the quoted "3" too, which
 * the contract refuses, so the literal is checked as it came.
 */
object JsonIntSerializer : KSerializer<Int> {
    override val descriptor: SerialDescriptor = PrimitiveSerialDescriptor("JsonInt", PrimitiveKind.INT)

    override fun serialize(encoder: Encoder, value: Int) = encoder.encodeInt(value)

    override fun deserialize(decoder: Decoder): Int {
        val literal = (decoder as JsonDecoder).decodeJsonElement() as? JsonPrimitive
        if (literal == null || literal.isString) throw SerializationException("expected a JSON number")
        return literal.content.toIntOrNull() ?: throw SerializationException("expected a 32-bit integer, got ${literal.content}")
    }
}

/**
 * Bodies are read strictly (Ktor's DefaultJson, which ContentNegotiation uses, is lenient: unquoted strings pass),
 * and members other than name and quantity are ignored, as the contract says.
 */
private val BODIES = Json { ignoreUnknownKeys = true }

/**
 * crud in Ktor's routing DSL, a route per method on /items and /items/{id}; the rows by JDBC's own API (common
 * JdbcItems) on the database dispatcher, answered through ContentNegotiation. The body is parsed in two steps so the
 * contract's split holds: text that is not JSON is Ktor's BadRequestException (400), JSON that does not decode to an
 * ItemBody is 422. A bad id, page or size is a BadRequestException too.
 */
fun Route.itemRoutes(items: JdbcItems, database: CoroutineDispatcher) {
    route("/items") {
        get {
            val page = call.request.queryParameters["page"].let { raw ->
                if (raw == null) Item.FIRST_PAGE
                else raw.toIntOrNull()?.takeIf { it >= Item.FIRST_PAGE } ?: throw BadRequestException("page must be an integer of 1 or more")
            }
            val size = call.request.queryParameters["size"].let { raw ->
                if (raw == null) Item.DEFAULT_SIZE
                else raw.toIntOrNull()?.takeIf { it in 1..Item.MAX_SIZE } ?: throw BadRequestException("size must be an integer from 1 to ${Item.MAX_SIZE}")
            }
            val rows: List<Item> = withContext(database) { items.page(page, size) }
            call.respond(rows)
        }
        post {
            val body = call.itemBody() ?: return@post
            val item = withContext(database) { items.create(body.name, body.quantity) }
            call.response.header(HttpHeaders.Location, "/items/${item.id()}")
            call.respond(HttpStatusCode.Created, item)
        }
        get("/{id}") {
            val id = call.itemId()
            val item: Item? = withContext(database) { items.find(id) }
            if (item == null) call.respond(HttpStatusCode.NotFound) else call.respond(item)
        }
        put("/{id}") {
            val id = call.itemId()
            val body = call.itemBody() ?: return@put
            val item: Item? = withContext(database) { items.update(id, body.name, body.quantity) }
            if (item == null) call.respond(HttpStatusCode.NotFound) else call.respond(item)
        }
        delete("/{id}") {
            val id = call.itemId()
            val deleted = withContext(database) { items.delete(id) }
            call.respond(if (deleted) HttpStatusCode.NoContent else HttpStatusCode.NotFound)
        }
    }
}

private fun RoutingCall.itemId(): Int =
    parameters["id"]?.toIntOrNull() ?: throw BadRequestException("the item id must be an integer")

/** The body, or null once the refusal has been answered. */
private suspend fun RoutingCall.itemBody(): ItemBody? {
    val json: JsonElement = try {
        BODIES.parseToJsonElement(receiveText())
    } catch (e: SerializationException) {
        throw BadRequestException("the body is not JSON", e)
    }
    return try {
        BODIES.decodeFromJsonElement(ItemBody.serializer(), json)
    } catch (e: IllegalArgumentException) {
        // SerializationException is one; so is what a primitive's own parsing throws.
        respondText("${e.message}", status = HttpStatusCode.UnprocessableEntity)
        null
    }
}
