// webshootout workloads on Hono, on Node.js through @hono/node-server (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import { createSecureServer } from 'node:http2';
import { serve, upgradeWebSocket } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { compress } from 'hono/compress';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { html } from 'hono/html';
import pg from 'pg';
import { WebSocketServer } from 'ws';

// The shared helpers are CommonJS.
const require = createRequire(import.meta.url);
const { positiveInteger } = require('../common/env.js');
const { honoApp } = require('../common/hono-app.js');
const { bump } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new pg.Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const app = honoApp({
  hono: { Hono, html, getSignedCookie, setSignedCookie, compress, bodyLimit },
  adapter: { serveStatic, upgradeWebSocket },
  db: {
    ...tfb.pgWorlds(pool),
    cache: tfb.worldCache(async () => {
      const { rows } = await pool.query('SELECT id, randomnumber FROM world');
      return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
    }),
    saveWorlds: (batch) => pool.query(tfb.updateSql(batch.length), batch.flat()),
    fortunes: async () => (await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' })).rows,
    bump: (uid) => bump(pool, uid),
  },
  readHashFile: () => fs.readFile(HASH_FILE),
  staticDir: STATIC_DIR,
  secretKey: SECRET_KEY,
});

// With TLS_CERT/TLS_KEY, @hono/node-server's documented HTTP/2 form: serve()'s createServer set to
// node:http2's createSecureServer, and allowHTTP1 so that ALPN offers http/1.1 beside h2 (the WebSocket
// upgrade arrives on that side). Unset: node:http's cleartext server as before.
const tls = tlsFiles();

// @hono/node-server's WebSocket support takes a ws server it hands the upgrades to.
serve({
  fetch: app.fetch,
  hostname: HOST,
  port: Number(PORT),
  websocket: { server: new WebSocketServer({ noServer: true }) },
  ...(tls && { createServer: createSecureServer, serverOptions: { allowHTTP1: true, ...tls } }),
});
