package webshootout.ktor

import io.ktor.server.application.install
import io.ktor.server.response.respondText
import io.ktor.server.routing.Route
import io.ktor.server.routing.get
import io.ktor.server.routing.route
import io.ktor.server.sessions.SessionStorage
import io.ktor.server.sessions.Sessions
import io.ktor.server.sessions.cookie
import io.ktor.server.sessions.get
import io.ktor.server.sessions.sessions
import io.ktor.server.sessions.set
import javax.sql.DataSource
import kotlinx.coroutines.CoroutineDispatcher
import kotlinx.coroutines.withContext
import kotlinx.serialization.Serializable

/** The visitor's session: Ktor's default session serializer (kotlinx.serialization JSON) stores {"count":N}. */
@Serializable
data class Visit(val count: Int)

/**
 * session, by Ktor's Sessions plugin with the session id in cookie "uid" and the session data server-side in
 * usersessions: a request with a known id reads its row (SessionStorage.read) before the handler runs, the
 * handler sets the count + 1, and the plugin writes the row (SessionStorage.write) before the response goes
 * out. An unknown id reads no row, so the visitor starts at 1 under a new id (SessionTrackerById).
 */
fun Route.sessionRoute(storage: SessionStorage) {
    route("/session") {
        install(Sessions) {
            cookie<Visit>("uid", storage) {
                cookie.path = "/"
                cookie.httpOnly = true
                cookie.extensions["SameSite"] = "Lax"
            }
        }
        get {
            val count = (call.sessions.get<Visit>()?.count ?: 0) + 1
            call.sessions.set(Visit(count))
            call.respondText("Count is $count")
        }
    }
}

/**
 * Ktor's SessionStorage on usersessions(uid, data). Its interface reads and writes in separate calls, so each
 * is one autocommitted statement on a pooled connection: concurrent requests of one visitor are not
 * serialised (as with Ktor's own storages); the contract's visitors make one request at a time.
 */
class PostgresSessionStorage(private val pool: DataSource, private val database: CoroutineDispatcher) : SessionStorage {
    override suspend fun read(id: String): String = withContext(database) {
        pool.connection.use { connection ->
            connection.prepareStatement("SELECT data FROM usersessions WHERE uid = ?").use { select ->
                select.setString(1, id)
                select.executeQuery().use { row ->
                    if (row.next()) row.getString(1) else throw NoSuchElementException("no session $id")
                }
            }
        }
    }

    override suspend fun write(id: String, value: String) {
        update(
            "INSERT INTO usersessions (uid, data) VALUES (?, ?) ON CONFLICT (uid) DO UPDATE SET data = EXCLUDED.data",
            id, value,
        )
    }

    override suspend fun invalidate(id: String) {
        update("DELETE FROM usersessions WHERE uid = ?", id)
    }

    private suspend fun update(sql: String, vararg values: String) {
        withContext(database) {
            pool.connection.use { connection ->
                connection.prepareStatement(sql).use { statement ->
                    values.forEachIndexed { i, value -> statement.setString(i + 1, value) }
                    statement.executeUpdate()
                }
            }
        }
    }
}
