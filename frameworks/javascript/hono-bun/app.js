// webshootout workloads on Hono, on Bun.serve (see docs/workloads.md).
// `bun app.js` serves in one process; `bun ../common/bun-cluster.js app.js` starts WORKERS of them on
// one port (REUSE_PORT=1: reusePort, as Bun's docs recommend for several CPUs).
import { SQL } from 'bun';
import { Hono } from 'hono';
// hono/bun is Hono's Bun adapter (its successor @hono/bun is not published on npm yet).
import { serveStatic, upgradeWebSocket, websocket } from 'hono/bun';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { html } from 'hono/html';
import { positiveInteger } from '../common/env.js';
import { honoApp } from '../common/hono-app.js';
import { bumpSql } from '../common/sessions.js';
import tfb from '../common/tfb.js';
import { tlsFiles } from '../common/tls.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;

// Bun.sql, Bun's built-in PostgreSQL client: at most DB_POOL connections per process (docs/fairness.md).
const sql = new SQL({ url: DATABASE_URL, max: positiveInteger('DB_POOL') });

const app = honoApp({
  hono: { Hono, html, getSignedCookie, setSignedCookie },
  adapter: { serveStatic, upgradeWebSocket },
  db: {
    ...tfb.sqlWorlds(sql),
    cache: tfb.sqlWorldCache(sql),
    saveWorlds: (batch) => sql.unsafe(tfb.updateSql(batch.length), batch.flat()),
    fortunes: () => sql`SELECT id, message FROM fortune`,
    bump: (uid) => bumpSql(sql, uid),
  },
  readHashFile: async () => new Uint8Array(await Bun.file(HASH_FILE).arrayBuffer()),
  staticDir: STATIC_DIR,
  secretKey: SECRET_KEY,
});

// With TLS_CERT/TLS_KEY, Bun.serve's own TLS, and http2: true (Bun 1.4's HTTP/2 server) so that ALPN offers
// h2 beside http/1.1. Unset: cleartext HTTP/1.1 as before; http2 stays off there, as it would also take h2c.
const tls = tlsFiles();

Bun.serve({
  hostname: HOST,
  port: Number(PORT),
  reusePort: process.env.REUSE_PORT === '1',
  ...(tls && { tls, http2: true }),
  fetch: app.fetch,
  websocket,
});
