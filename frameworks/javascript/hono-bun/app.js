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
import hashing from '../common/hash.js';
import { bumpSql } from '../common/sessions.js';
import tfb from '../common/tfb.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';

// Bun.sql, Bun's built-in PostgreSQL client: at most DB_POOL connections per process (docs/fairness.md).
const sql = new SQL({ url: DATABASE_URL, max: positiveInteger('DB_POOL') });

const { randomWorld, randomWorlds } = tfb.sqlWorlds(sql);

const cache = tfb.worldCache(async () => {
  const rows = await sql`SELECT id, randomnumber FROM world`;
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

const app = new Hono();

// Hono sets no Server header of its own; Bun.serve adds a current Date to every response.
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
  await sql.unsafe(tfb.updateSql(batch.length), batch.flat());
  return c.json(worlds);
});

// hono/html's tagged template escapes every interpolated value.
app.get('/fortunes', async (c) => {
  const fortunes = tfb.withExtraFortune(await sql`SELECT id, message FROM fortune`);
  return c.html(html`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${
    fortunes.map((f) => html`<tr><td>${f.id}</td><td>${f.message}</td></tr>`)}</table></body></html>`);
});

app.get('/cached-queries', async (c) => c.json(await cache.sample(tfb.count(c.req.query('count')))));

app.get('/session', async (c) => {
  // A missing, unsigned or tampered cookie reads as false: that visitor is unknown.
  const uid = await getSignedCookie(c, SECRET_KEY, COOKIE);
  const { fresh, count } = await bumpSql(sql, uid || undefined);
  if (fresh !== undefined) await setSignedCookie(c, COOKIE, fresh, SECRET_KEY, { path: '/', httpOnly: true, sameSite: 'Lax' });
  return c.text(`Count is ${count}`);
});

app.get('/hash', async (c) => {
  const raw = c.req.query('n');
  const reason = hashing.reason(raw);
  if (reason !== null) return c.text(reason, 400);
  return c.text(hashing.iteratedSha256Hex(new Uint8Array(await Bun.file(HASH_FILE).arrayBuffer()), Number(raw)));
});

app.use('/static/*', serveStatic({ root: STATIC_DIR, rewriteRequestPath: (p) => p.slice('/static'.length) }));

app.get('/ws', upgradeWebSocket(() => ({
  onMessage(event, ws) {
    ws.send(event.data);
  },
})));

Bun.serve({
  hostname: HOST,
  port: Number(PORT),
  reusePort: process.env.REUSE_PORT === '1',
  fetch: app.fetch,
  websocket,
});
