import type { HttpContext } from '@adonisjs/core/http'
import type { NextFn } from '@adonisjs/core/types/http'

/*
 * AdonisJS sets no Server header of its own (docs/workloads.md: then the framework's name); node's http
 * module sets a current Date on every response.
 */
export default class ServerHeaderMiddleware {
  handle({ response }: HttpContext, next: NextFn) {
    response.header('Server', 'AdonisJS')
    return next()
  }
}
