import env from '#start/env'
import { defineConfig, stores } from '@adonisjs/session'

/*
 * @adonisjs/session's database store on Lucid's PostgreSQL connection: the counter lives in the
 * framework's own session table, in the harness's database (docs/workloads.md, session). The table is
 * named adonis_sessions rather than the default `sessions`, which Laravel's session table takes in the
 * same database when both stacks run against one PostgreSQL.
 */
export default defineConfig({
  enabled: true,
  cookieName: 'adonis-session',
  clearWithBrowser: false,
  age: '2h',
  cookie: {
    path: '/',
    httpOnly: true,
    secure: env.get('TLS_CERT') !== undefined,
    sameSite: 'lax',
  },
  store: 'database',
  stores: {
    database: stores.database({
      connectionName: 'postgres',
      tableName: 'adonis_sessions',
    }),
  },
})
