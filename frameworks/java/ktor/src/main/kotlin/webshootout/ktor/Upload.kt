package webshootout.ktor

import io.ktor.server.plugins.PayloadTooLargeException
import io.ktor.server.request.contentLength
import io.ktor.server.request.receiveChannel
import io.ktor.server.response.respondText
import io.ktor.server.routing.Route
import io.ktor.server.routing.post
import io.ktor.utils.io.readAvailable
import java.security.MessageDigest
import java.util.HexFormat

/** The request body limit: the contract's 1 MiB bodies pass, its 16 MiB one is refused. */
private const val UPLOAD_LIMIT = 2L * 1024 * 1024

/**
 * upload and upload-chunked: the body read as it arrives through Ktor's receiveChannel (Content-Length or chunked
 * alike), each read fed to SHA-256, so no body is held whole.
 *
 * The limit is Ktor's RequestBodyLimit plugin written out: ktor-server-body-limit-jvm is not served by the registry
 * here (neither 3.5.2 nor 3.5.1), and Ktor sets no limit of its own. Its two checks, as the plugin makes them: a
 * Content-Length over the limit is refused before the body is read, and a chunked body's reads are counted against
 * it; both throw the PayloadTooLargeException the plugin throws, which Ktor answers with 413.
 */
fun Route.uploadRoute() {
    post("/upload") {
        val declared = call.request.contentLength()
        if (declared != null && declared > UPLOAD_LIMIT) throw PayloadTooLargeException(UPLOAD_LIMIT)
        val body = call.receiveChannel()
        val digest = MessageDigest.getInstance("SHA-256")
        val buffer = ByteArray(16 * 1024)
        var read = 0L
        while (true) {
            val n = body.readAvailable(buffer, 0, buffer.size)
            if (n == -1) break
            read += n
            if (read > UPLOAD_LIMIT) throw PayloadTooLargeException(UPLOAD_LIMIT)
            digest.update(buffer, 0, n)
        }
        // A channel closed by a failure (a broken connection) also reads as ended.
        body.closedCause?.let { throw it }
        call.respondText("$read ${HexFormat.of().formatHex(digest.digest())}")
    }
}
