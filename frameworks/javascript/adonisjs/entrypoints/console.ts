/*
 * Ace's entrypoint: AdonisJS's bin/console.ts, in entrypoints/ for the reason entrypoints/server.ts gives.
 * The start command runs `build/entrypoints/console.js migration:run --force` (the deployment guide's
 * `node ace migration:run --force`) to create the session store's table before the server starts.
 */
// First: ignitor.js loads reflect-metadata before anything of AdonisJS.
import { ignitor } from './ignitor.js'
import { prettyPrintError } from '@adonisjs/core'

ignitor()
  .ace()
  .handle(process.argv.splice(2))
  .catch((error) => {
    process.exitCode = 1
    prettyPrintError(error)
  })
