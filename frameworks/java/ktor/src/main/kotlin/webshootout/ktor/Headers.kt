package webshootout.ktor

import io.ktor.http.HttpHeaders
import io.ktor.server.application.createApplicationPlugin
import io.ktor.server.response.header
import webshootout.common.HttpDate

/**
 * Server and Date on every response, as Ktor's DefaultHeaders plugin sets them (ktor-server-default-headers-jvm
 * 3.5.2 is not served by the registry here, so this is that plugin's hook written out): on the respond hook,
 * Date from the shared HttpDate (IMF-fixdate, formatted at most once a second), Server the framework's name
 * (DefaultHeaders would send Ktor/<version>).
 */
val ServerAndDate = createApplicationPlugin("ServerAndDate") {
    onCallRespond { call, _ ->
        call.response.header(HttpHeaders.Server, "Ktor")
        call.response.header(HttpHeaders.Date, HttpDate.now())
    }
}
