/*
 * The HTTP server's entrypoint: AdonisJS's bin/server.ts, kept in entrypoints/ because the harness treats a
 * top-level bin/ folder as build output (not hashed, removed by `shootout clean`). In production it runs
 * compiled, as build/entrypoints/server.js (the deployment guide's `node bin/server.js`).
 */
import 'reflect-metadata'
import https from 'node:https'
import { Ignitor, prettyPrintError } from '@adonisjs/core'
import { common } from '../app/services/common.js'

const APP_ROOT = new URL('../', import.meta.url)

const IMPORTER = (filePath: string) => {
  if (filePath.startsWith('./') || filePath.startsWith('../')) {
    return import(new URL(filePath, APP_ROOT).href)
  }
  return import(filePath)
}

// With TLS_CERT and TLS_KEY the Ignitor's server callback makes node's https server (TLS only on PORT);
// without them AdonisJS creates its default node:http server.
const tls = common.tls.tlsFiles()

new Ignitor(APP_ROOT, { importer: IMPORTER })
  .tap((app) => {
    app.booting(async () => {
      await import('#start/env')
    })
    app.listen('SIGTERM', () => app.terminate())
    app.listenIf(app.managedByPm2, 'SIGINT', () => app.terminate())
  })
  .httpServer()
  .start(tls === null ? undefined : (handler) => https.createServer(tls, handler))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
