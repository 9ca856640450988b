/*
 * The environment the harness gives the server (docs/adding-a-framework.md), validated by AdonisJS's Env
 * service; a missing or malformed one stops the server with its name.
 */
import { Env } from '@adonisjs/core/env'

export default await Env.create(new URL('../', import.meta.url), {
  NODE_ENV: Env.schema.enum(['development', 'production', 'test'] as const),
  HOST: Env.schema.string({ format: 'host' }),
  PORT: Env.schema.number(),
  // The run's random secret serves as the app key: it signs the session cookie.
  SECRET_KEY: Env.schema.secret(),
  LOG_LEVEL: Env.schema.string.optional(),
  DATABASE_URL: Env.schema.string(),
  DB_POOL: Env.schema.number(),
  HASH_FILE: Env.schema.string(),
  STATIC_DIR: Env.schema.string(),
  TLS_CERT: Env.schema.string.optional(),
})
