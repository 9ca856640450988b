import type { HttpContext } from '@adonisjs/core/http'

/*
 * The visitor's counter in its AdonisJS session (config/session.ts: the database store). The session
 * middleware reads the session row named by the signed session cookie before the action (a visitor
 * without one, or with an unknown or tampered one, gets a new session and cookie) and writes it after.
 */
export default class SessionController {
  show({ session }: HttpContext) {
    const count = (session.get('count', 0) as number) + 1
    session.put('count', count)
    return `Count is ${count}`
  }
}
