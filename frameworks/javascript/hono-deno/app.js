// webshootout workloads on Hono, on Deno's own HTTP server (see docs/workloads.md), run by `deno serve`,
// the CLI form of Deno.serve: the Hono app is the module's default export. `deno serve --parallel` runs
// DENO_JOBS = WORKERS copies of it on one port.
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
// hono/deno is Hono's Deno adapter (its successor @hono/deno is not published on npm yet).
import { serveStatic, upgradeWebSocket } from 'hono/deno';
import { html } from 'hono/html';
import postgres from 'postgres';

// The shared helpers are CommonJS (node's stacks use them too).
const require = createRequire(import.meta.url);
const { positiveInteger } = require('../common/env.js');
const { honoApp } = require('../common/hono-app.js');
const { bumpSql } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');

const { HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = Deno.env.toObject();

// postgres.js pools its connections: at most DB_POOL per process (docs/fairness.md); its tagged
// queries are prepared statements.
const sql = postgres(DATABASE_URL, { max: positiveInteger('DB_POOL') });

// deno serve answers SIGTERM with a graceful shutdown of the HTTP server, but the pool's open
// connections would keep the process alive: close them, then exit.
Deno.addSignalListener('SIGTERM', () => {
  sql.end({ timeout: 1 }).finally(() => Deno.exit(0));
});

export default honoApp({
  hono: { Hono, html, getSignedCookie, setSignedCookie },
  adapter: { serveStatic, upgradeWebSocket },
  db: {
    ...tfb.sqlWorlds(sql),
    cache: tfb.sqlWorldCache(sql),
    // postgres.js's documented form of several updates in one statement: sql(rows) as a VALUES list.
    saveWorlds: (batch) => sql`UPDATE world SET randomnumber = v.r::int
      FROM (VALUES ${sql(batch)}) AS v (id, r) WHERE world.id = v.id::int`,
    fortunes: () => sql`SELECT id, message FROM fortune`,
    bump: (uid) => bumpSql(sql, uid),
  },
  readHashFile: () => Deno.readFile(HASH_FILE),
  staticDir: STATIC_DIR,
  secretKey: SECRET_KEY,
});
