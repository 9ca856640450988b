'use strict';
// webshootout workloads on Koa 3 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const fs = require('node:fs/promises');
const http = require('node:http');
const http2 = require('node:http2');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const { bodyParser } = require('@koa/bodyparser');
const render = require('@koa/ejs');
const Router = require('@koa/router');
const Koa = require('koa');
const compress = require('koa-compress');
const serve = require('koa-static');
const { Pool } = require('pg');
const getRawBody = require('raw-body');
const { WebSocketServer } = require('ws');
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const items = require('../common/items.js');
const jsonComp = require('../common/json-comp.js');
const { bump } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');
const upload = require('../common/upload.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

const app = new Koa({ keys: [SECRET_KEY] });
// @koa/ejs, Koa's EJS renderer (it escapes <%= %>), with its template cache.
render(app, { root: path.join(__dirname, '..', 'common', 'views'), layout: false, viewExt: 'ejs', cache: true });

// Koa sets no Server header of its own; node's http module sets a current Date on every response. Koa's
// answer to a thrown HttpError (ctx.assert, a body parser's 400, raw-body's 413) drops the headers set so far
// and sets only the error's own `headers`, so the name rides on the error too.
app.use(async (ctx, next) => {
  ctx.set('Server', 'Koa');
  try {
    await next();
  } catch (err) {
    if (err !== null && typeof err === 'object') err.headers = { ...err.headers, Server: 'Koa' };
    throw err;
  }
});

// koa-compress, Koa's compression middleware, with its defaults (gzip, deflate and br by Accept-Encoding,
// 1024-byte threshold, compressible types only, Vary: Accept-Encoding), used app-wide as its README shows;
// the check's other requests send no Accept-Encoding.
app.use(compress());

const router = new Router();

router.get('/plaintext', (ctx) => {
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Hello, World!';
});

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
router.get('/async', async (ctx) => {
  await sleep(15);
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = 'Hello, World!';
});

// Koa serializes an object body with JSON.stringify on every response.
router.get('/json', (ctx) => {
  ctx.body = { message: 'Hello, World!' };
});

router.get('/json-comp', (ctx) => {
  ctx.body = jsonComp.items(jsonComp.count(ctx.query.n));
});

// Koa leaves the body to middleware: raw-body, the reader under Koa's body parsers (co-body), buffers the
// whole stream (Content-Length or chunked), and its `limit`
// (https://github.com/stream-utils/raw-body#getrawbodystream-options-callback) throws a 413 HttpError past
// 2 MiB, which Koa answers with that status.
router.post('/upload', async (ctx) => {
  const body = await getRawBody(ctx.req, { length: ctx.get('Content-Length') || undefined, limit: upload.BODY_LIMIT });
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = upload.answer(body);
});

router.get('/db', async (ctx) => {
  ctx.body = await randomWorld();
});

router.get('/queries', async (ctx) => {
  ctx.body = await randomWorlds(tfb.count(ctx.query.queries));
});

router.get('/updates', async (ctx) => {
  const worlds = await randomWorlds(tfb.count(ctx.query.queries));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  ctx.body = worlds;
});

router.get('/fortunes', async (ctx) => {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  await ctx.render('fortunes', { fortunes: tfb.withExtraFortune(rows) });
});

router.get('/cached-queries', async (ctx) => {
  ctx.body = await cache.sample(tfb.count(ctx.query.count));
});

router.get('/session', async (ctx) => {
  // Koa's signed cookies: a tampered or unsigned one reads as undefined, an unknown visitor.
  const { fresh, count } = await bump(pool, ctx.cookies.get(COOKIE, { signed: true }));
  if (fresh !== undefined) ctx.cookies.set(COOKIE, fresh, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
  ctx.type = 'text/plain; charset=utf-8';
  ctx.body = `Count is ${count}`;
});

router.get('/hash', async (ctx) => {
  ctx.type = 'text/plain; charset=utf-8';
  const raw = ctx.query.n;
  const reason = hashing.reason(raw);
  if (reason !== null) {
    ctx.status = 400;
    ctx.body = reason;
    return;
  }
  ctx.body = hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw));
});

// crud: @koa/router, one route per method; @koa/bodyparser (co-body) parses the JSON body and throws a 400
// for one that is not JSON, which Koa answers; jsonStrict off so that JSON that is not an object reaches
// the shape check (422) instead of co-body's 400. Plain checks of the shape (../common/items.js), pg's queries.
const ITEMS = '/items';
const store = items.pgItems(pool);
const itemBody = bodyParser({ enableTypes: ['json'], jsonStrict: false });
const UNPROCESSABLE = 'expected an object with a string name and a 32-bit integer quantity';

router.get(ITEMS, async (ctx) => {
  const page = items.pageOf(ctx.query.page, ctx.query.size);
  ctx.assert(page !== null, 400, 'page must be an integer >= 1, size an integer in 1..100');
  ctx.body = await store.page(page);
});

router.get(`${ITEMS}/:id`, async (ctx) => {
  const id = items.itemId(ctx.params.id);
  const item = id === null ? null : await store.find(id);
  ctx.assert(item !== null, 404, `no item ${ctx.params.id}`);
  ctx.body = item;
});

router.post(ITEMS, itemBody, async (ctx) => {
  const fields = items.itemFields(ctx.request.body);
  ctx.assert(fields !== null, 422, UNPROCESSABLE);
  const item = await store.create(fields);
  ctx.status = 201;
  ctx.set('Location', `${ITEMS}/${item.id}`);
  ctx.body = item;
});

router.put(`${ITEMS}/:id`, itemBody, async (ctx) => {
  const fields = items.itemFields(ctx.request.body);
  ctx.assert(fields !== null, 422, UNPROCESSABLE);
  const id = items.itemId(ctx.params.id);
  const item = id === null ? null : await store.update(id, fields);
  ctx.assert(item !== null, 404, `no item ${ctx.params.id}`);
  ctx.body = item;
});

router.delete(`${ITEMS}/:id`, async (ctx) => {
  const id = items.itemId(ctx.params.id);
  ctx.assert(id !== null && await store.remove(id), 404, `no item ${ctx.params.id}`);
  ctx.status = 204;
});

app.use(router.routes());
app.use(router.allowedMethods());

// koa-static serves the folder under /static: the prefix is stripped for it.
const files = serve(STATIC_DIR);
app.use(async (ctx, next) => {
  if (!ctx.path.startsWith('/static/')) return next();
  const original = ctx.path;
  ctx.path = ctx.path.slice('/static'.length);
  try {
    await files(ctx, next);
  } finally {
    ctx.path = original;
  }
});

// With TLS_CERT/TLS_KEY, app.callback() on node:http2's secure server, as Koa's maintainers advise for
// HTTP/2 (koajs/koa#1833): h2 by ALPN, and allowHTTP1 serves http/1.1 clients too (the WebSocket upgrade
// arrives on that side). Unset: node:http's cleartext server as before.
const tls = tlsFiles();
const server = tls === null
  ? http.createServer(app.callback())
  : http2.createSecureServer({ allowHTTP1: true, ...tls }, app.callback());
// Koa has no WebSocket support of its own: ws shares the HTTP server.
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});

server.listen(Number(PORT), HOST);
