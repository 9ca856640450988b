import env from '#start/env'
import { defineConfig } from '@adonisjs/core/http'

/*
 * The app key signs and encrypts cookies (the session id's among them): the run's SECRET_KEY.
 */
export const appKey = env.get('SECRET_KEY')

export const appUrl = `http://${env.get('HOST')}:${env.get('PORT')}`

/*
 * The HTTP server's settings: the starter kits' values, with no request id and no ETag on dynamic answers
 * (AdonisJS's defaults). Cookies are Secure only when the server itself serves TLS: the starter kits tie
 * `secure` to production because production sits behind HTTPS, which the harness's cleartext runs do not.
 */
export const http = defineConfig({
  generateRequestId: false,
  allowMethodSpoofing: false,
  useAsyncLocalStorage: false,
  etag: false,
  cookie: {
    domain: '',
    path: '/',
    maxAge: '2h',
    httpOnly: true,
    secure: env.get('TLS_CERT') !== undefined,
    sameSite: 'lax',
  },
})
