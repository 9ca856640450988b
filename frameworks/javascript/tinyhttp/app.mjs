// webshootout workloads on tinyhttp 3 (see docs/workloads.md), an ES module as tinyhttp's own packages are.
// `node app.mjs` serves in one process, `node ../common/cluster.js app.mjs` in WORKERS processes (node 20.19
// and later require() an ES module without top-level await).
import fs from 'node:fs/promises';
import http from 'node:http';
import http2 from 'node:http2';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { App } from '@tinyhttp/app';
import { cookieParser } from '@tinyhttp/cookie-parser';
import ejs from 'ejs';
import pg from 'pg';
import sirv from 'sirv';
import { tinyws } from 'tinyws';
import env from '../common/env.js';
import hashing from '../common/hash.js';
import sessions from '../common/sessions.js';
import tfb from '../common/tfb.js';
import tlsConfig from '../common/tls.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';
const here = path.dirname(fileURLToPath(import.meta.url));

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = env.positiveInteger('DB_POOL');
const pool = new pg.Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// tinyhttp turns its view cache on with NODE_ENV=production ('view cache' setting); its default onError
// answers 500 without details in production.
const app = new App({ settings: { xPoweredBy: false, views: path.join(here, '..', 'common', 'views') } });
// tinyhttp's view system with EJS (which escapes <%= %>) as the engine, as Express's engines plug in.
app.engine('ejs', ejs.renderFile);

// tinyhttp sets no Server header of its own; node's http module sets a current Date on every response.
app.use((req, res, next) => {
  res.setHeader('Server', 'tinyhttp');
  next();
});
// sirv, the static-file middleware tinyhttp's docs point to (it has none of its own); use('/static')
// strips the prefix from req.url.
app.use('/static', sirv(STATIC_DIR));
app.use(cookieParser(SECRET_KEY));

app.get('/plaintext', (req, res) => {
  res.set('Content-Type', 'text/plain; charset=utf-8').send('Hello, World!');
});

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
app.get('/async', async (req, res) => {
  await sleep(15);
  res.set('Content-Type', 'text/plain; charset=utf-8').send('Hello, World!');
});

// res.json serializes with JSON.stringify on every response.
app.get('/json', (req, res) => {
  res.json({ message: 'Hello, World!' });
});

app.get('/db', async (req, res) => {
  res.json(await randomWorld());
});

app.get('/queries', async (req, res) => {
  res.json(await randomWorlds(tfb.count(req.query.queries)));
});

app.get('/updates', async (req, res) => {
  const worlds = await randomWorlds(tfb.count(req.query.queries));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  res.json(worlds);
});

app.get('/fortunes', async (req, res) => {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  res.set('Content-Type', 'text/html; charset=utf-8');
  res.render('fortunes.ejs', { fortunes: tfb.withExtraFortune(rows) });
});

app.get('/cached-queries', async (req, res) => {
  res.json(await cache.sample(tfb.count(req.query.count)));
});

app.get('/session', async (req, res) => {
  // @tinyhttp/cookie-parser's signed cookies: a tampered or unsigned one is not in req.signedCookies (or
  // reads as false), an unknown visitor.
  const { fresh, count } = await sessions.bump(pool, req.signedCookies[COOKIE] || undefined);
  if (fresh !== undefined) res.cookie(COOKIE, fresh, { signed: true, httpOnly: true, sameSite: 'Lax', path: '/' });
  res.set('Content-Type', 'text/plain; charset=utf-8').send(`Count is ${count}`);
});

app.get('/hash', async (req, res) => {
  res.set('Content-Type', 'text/plain; charset=utf-8');
  const raw = req.query.n;
  const reason = hashing.reason(raw);
  if (reason !== null) return res.status(400).send(reason);
  res.send(hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)));
});

// tinyws, tinyhttp's WebSocket middleware on ws: it routes the upgrade through the app, where req.ws()
// completes the handshake.
app.get('/ws', async (req, res) => {
  if (!req.ws) return res.status(426).send('WebSocket upgrade required');
  const ws = await req.ws();
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});

// With TLS_CERT/TLS_KEY, the app's handler (app.attach) on node:http2's secure server: h2 by ALPN, and
// allowHTTP1 serves http/1.1 clients too (the WebSocket upgrade arrives on that side). Unset: node:http,
// the server app.listen() would create.
const tls = tlsConfig.tlsFiles();
const server = tls === null ? http.createServer() : http2.createSecureServer({ allowHTTP1: true, ...tls });
server.on('request', app.attach);
tinyws(app, server, { paths: ['/ws'] });
server.listen(Number(PORT), HOST);
