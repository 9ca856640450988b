/*
 * The HTTP kernel: server middleware runs on every request, named middleware on the routes that use it.
 */
import router from '@adonisjs/core/services/router'
import server from '@adonisjs/core/services/server'

server.errorHandler(() => import('#exceptions/handler'))

// The Server header first, so the static middleware, which copies the response's headers onto the file
// it sends, carries it too. The static middleware serves the public directory (STATIC_DIR, see
// providers/shootout_provider.ts) before routing, as the web starter kit registers it.
server.use([
  () => import('#middleware/server_header_middleware'),
  () => import('@adonisjs/static/static_middleware'),
])

// Every route is a GET without a body, so no bodyparser middleware (the API and slim starter kits' only
// router middleware) is registered.
router.use([])

// The session middleware only where a session is used: on every route it would read and write the
// session table for requests that never touch the session.
export const middleware = router.named({
  session: () => import('@adonisjs/session/session_middleware'),
})
