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
const hashing = require('../common/hash.js');
const { bumpSql } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');

const { HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = Deno.env.toObject();
const COOKIE = 'uid';

// postgres.js pools its connections: at most DB_POOL per process (docs/fairness.md); its tagged
// queries are prepared statements.
const sql = postgres(DATABASE_URL, { max: positiveInteger('DB_POOL') });

// deno serve answers SIGTERM with a graceful shutdown of the HTTP server, but the pool's open
// connections would keep the process alive: close them, then exit.
Deno.addSignalListener('SIGTERM', () => {
  sql.end({ timeout: 1 }).finally(() => Deno.exit(0));
});

const { randomWorld, randomWorlds } = tfb.sqlWorlds(sql);

const cache = tfb.worldCache(async () => {
  const rows = await sql`SELECT id, randomnumber FROM world`;
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

const app = new Hono();

// Hono sets no Server header of its own; Deno's server adds a current Date to every response.
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
  // postgres.js's documented form of several updates in one statement: sql(rows) as a VALUES list.
  await sql`UPDATE world SET randomnumber = v.r::int
    FROM (VALUES ${sql(tfb.updateBatch(worlds))}) AS v (id, r) WHERE world.id = v.id::int`;
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
  return c.text(hashing.iteratedSha256Hex(await Deno.readFile(HASH_FILE), Number(raw)));
});

app.use('/static/*', serveStatic({ root: STATIC_DIR, rewriteRequestPath: (p) => p.slice('/static'.length) }));

app.get('/ws', upgradeWebSocket(() => ({
  onMessage(event, ws) {
    ws.send(event.data);
  },
})));

export default app;
