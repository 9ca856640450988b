package webshootout.ktor

import io.ktor.http.HttpHeaders
import io.ktor.http.toHttpDate
import io.ktor.server.application.createApplicationPlugin
import io.ktor.server.response.header
import io.ktor.util.date.GMTDate

/**
 * Server and Date on every response, as Ktor's DefaultHeaders plugin sets them (ktor-server-default-headers-jvm
 * 3.5.2 is not served by the registry here, so this is that plugin's hook written out): on the respond hook,
 * Date formatted by Ktor's own GMTDate.toHttpDate (IMF-fixdate) at most once a second, Server the framework's
 * name (DefaultHeaders would send Ktor/<version>).
 */
val ServerAndDate = createApplicationPlugin("ServerAndDate") {
    onCallRespond { call, _ ->
        call.response.header(HttpHeaders.Server, "Ktor")
        call.response.header(HttpHeaders.Date, httpDate())
    }
}

private class Stamp(val second: Long, val text: String)

@Volatile
private var stamp = Stamp(-1, "")

private fun httpDate(): String {
    val second = System.currentTimeMillis() / 1000
    val current = stamp
    if (current.second == second) return current.text
    return Stamp(second, GMTDate(second * 1000).toHttpDate()).also { stamp = it }.text
}
