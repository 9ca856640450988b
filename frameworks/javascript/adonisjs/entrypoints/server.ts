/*
 * The HTTP server's entrypoint: AdonisJS's bin/server.ts, kept in entrypoints/ because the harness treats a
 * top-level bin/ folder as build output (not hashed, removed by `shootout clean`). In production it runs
 * compiled, as build/entrypoints/server.js (the deployment guide's `node bin/server.js`).
 */
// First: ignitor.js loads reflect-metadata before anything of AdonisJS.
import { ignitor } from './ignitor.js'
import https from 'node:https'
import { prettyPrintError } from '@adonisjs/core'
import { common } from '../app/services/common.js'

// With TLS_CERT and TLS_KEY the Ignitor's server callback makes node's https server (TLS only on PORT);
// without them AdonisJS creates its default node:http server.
const tls = common.tls.tlsFiles()

ignitor()
  .httpServer()
  .start(tls === null ? undefined : (handler) => https.createServer(tls, handler))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
