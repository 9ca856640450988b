// webshootout workloads on Hono, on Node.js through @hono/node-server (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
import { createRequire } from 'node:module';
import fs from 'node:fs/promises';
import { serve, upgradeWebSocket } from '@hono/node-server';
import { serveStatic } from '@hono/node-server/serve-static';
import { Hono } from 'hono';
import { getSignedCookie, setSignedCookie } from 'hono/cookie';
import { html } from 'hono/html';
import pg from 'pg';
import { WebSocketServer } from 'ws';

// The shared helpers are CommonJS.
const require = createRequire(import.meta.url);
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const { bump } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new pg.Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

const app = new Hono();

// Hono sets no Server header of its own; node's http module sets a current Date on every response.
app.use(async (c, next) => {
  await next();
  c.res.headers.set('Server', 'Hono');
});

app.get('/plaintext', (c) => c.text('Hello, World!'));
app.get('/json', (c) => c.json({ message: 'Hello, World!' }));
app.get('/db', async (c) => c.json(await randomWorld()));
app.get('/queries', async (c) => c.json(await randomWorlds(tfb.count(c.req.query('queries')))));

app.get('/updates', async (c) => {
  const worlds = await randomWorlds(tfb.count(c.req.query('queries')));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  return c.json(worlds);
});

// hono/html's tagged template escapes every interpolated value.
app.get('/fortunes', async (c) => {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  const fortunes = tfb.withExtraFortune(rows);
  return c.html(html`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${
    fortunes.map((f) => html`<tr><td>${f.id}</td><td>${f.message}</td></tr>`)}</table></body></html>`);
});

app.get('/cached-queries', async (c) => c.json(await cache.sample(tfb.count(c.req.query('count')))));

app.get('/session', async (c) => {
  // A missing, unsigned or tampered cookie reads as false: that visitor is unknown.
  const uid = await getSignedCookie(c, SECRET_KEY, COOKIE);
  const { fresh, count } = await bump(pool, uid || undefined);
  if (fresh !== undefined) await setSignedCookie(c, COOKIE, fresh, SECRET_KEY, { path: '/', httpOnly: true, sameSite: 'Lax' });
  return c.text(`Count is ${count}`);
});

app.get('/hash', async (c) => {
  const raw = c.req.query('n');
  const reason = hashing.reason(raw);
  if (reason !== null) return c.text(reason, 400);
  return c.text(hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)));
});

app.use('/static/*', serveStatic({ root: STATIC_DIR, rewriteRequestPath: (p) => p.slice('/static'.length) }));

app.get('/ws', upgradeWebSocket(() => ({
  onMessage(event, ws) {
    ws.send(event.data);
  },
})));

// @hono/node-server's WebSocket support takes a ws server it hands the upgrades to.
serve({
  fetch: app.fetch,
  hostname: HOST,
  port: Number(PORT),
  websocket: { server: new WebSocketServer({ noServer: true }) },
});
