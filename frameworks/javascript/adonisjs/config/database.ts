import env from '#start/env'
import { defineConfig } from '@adonisjs/lucid'

/*
 * Lucid on PostgreSQL (pg, through knex). Each process opens DB_POOL connections, min = max
 * (docs/fairness.md): one process of the base stack, each of the WORKERS processes of the cluster variant.
 */
const pool = env.get('DB_POOL')

const dbConfig = defineConfig({
  connection: 'postgres',
  prettyPrintDebugQueries: false,
  connections: {
    postgres: {
      client: 'pg',
      connection: env.get('DATABASE_URL'),
      pool: { min: pool, max: pool },
      debug: false,
      migrations: {
        naturalSort: true,
        paths: ['database/migrations'],
      },
    },
  },
})

export default dbConfig
