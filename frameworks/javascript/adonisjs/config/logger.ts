import env from '#start/env'
import { defineConfig } from '@adonisjs/core/logger'

/*
 * Warnings and errors only (docs/fairness.md: no access log; AdonisJS logs no requests by itself), written
 * by pino straight to stdout: no transport, so no pino worker thread.
 */
const loggerConfig = defineConfig({
  default: 'app',
  loggers: {
    app: {
      enabled: true,
      name: 'adonisjs',
      level: env.get('LOG_LEVEL') ?? 'warn',
    },
  },
})

export default loggerConfig

declare module '@adonisjs/core/types' {
  export interface LoggersList extends InferLoggers<typeof loggerConfig> {}
}
