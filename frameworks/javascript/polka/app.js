'use strict';
// webshootout workloads on Polka 0.5 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const fs = require('node:fs/promises');
const http = require('node:http');
const http2 = require('node:http2');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const send = require('@polka/send-type');
const bodyParser = require('body-parser');
const compression = require('compression');
const signature = require('cookie-signature');
const ejs = require('ejs');
const { Pool } = require('pg');
const polka = require('polka');
const sirv = require('sirv');
const { WebSocketServer } = require('ws');
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const items = require('../common/items.js');
const jsonComp = require('../common/json-comp.js');
const { bump, cookieValue } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');
const upload = require('../common/upload.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';
const TEXT = { 'Content-Type': 'text/plain; charset=utf-8' };
const HTML = { 'Content-Type': 'text/html; charset=utf-8' };
const FORTUNES = path.join(__dirname, '..', 'common', 'views', 'fortunes.ejs');

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// Polka 0.5 does not await a handler's promise: a rejection goes to next(err), Polka's error path.
function route(handler) {
  return (req, res, next) => handler(req, res).catch(next);
}

// Polka's own onError takes err.code for the status, which for a driver's error is a string such as
// ECONNREFUSED that node refuses: such an error is logged and answered 500. A client's error from Express
// middleware (body-parser's 413) carries its numeric 4xx status, which is answered as such.
function onError(err, req, res) {
  if (Number.isInteger(err.status) && err.status >= 400 && err.status < 500) {
    return send(res, err.status, err.expose ? err.message : 'Bad Request', TEXT);
  }
  console.error(err);
  send(res, 500, 'Internal Server Error', TEXT);
}

function onNoMatch(req, res) {
  send(res, 404, 'Not Found', TEXT);
}

// crud: Polka's router, one route per method; body-parser's JSON parser on the routes with a body (its 400 for
// a body that is not JSON goes through onError; strict off so that JSON that is not an object reaches the
// shape check's 422), plain checks (../common/items.js) and pg's queries.
const ITEMS = '/items';
const store = items.pgItems(pool);
const itemBody = bodyParser.json({ strict: false });
const UNPROCESSABLE = { error: 'expected an object with a string name and a 32-bit integer quantity' };
const BAD_PAGE = { error: 'page must be an integer >= 1, size an integer in 1..100' };
const missing = (res, req) => send(res, 404, { error: `no item ${req.params.id}` });

// With TLS_CERT/TLS_KEY, Polka's `server` option is node:http2's secure server: h2 by ALPN, and allowHTTP1
// serves http/1.1 clients too (the WebSocket upgrade arrives on that side). Unset: node:http, the server
// Polka creates by default.
const tls = tlsFiles();
const server = tls === null ? http.createServer() : http2.createSecureServer({ allowHTTP1: true, ...tls });

const app = polka({ server, onError, onNoMatch })
  // Polka sets no Server header of its own; node's http module sets a current Date on every response.
  .use((req, res, next) => {
    res.setHeader('Server', 'Polka');
    next();
  })
  // Polka has no compression of its own and takes Express middleware: compression, Express's, with its
  // defaults (gzip, deflate and br by Accept-Encoding, 1 kb threshold, Vary: Accept-Encoding) app-wide as
  // its README applies it; the check's other requests send no Accept-Encoding.
  .use(compression())
  // sirv, the static-file server Polka's README pairs it with (same author); /static is stripped by use().
  .use('/static', sirv(STATIC_DIR))
  .get('/plaintext', (req, res) => send(res, 200, 'Hello, World!', TEXT))
  // async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
  .get('/async', route(async (req, res) => {
    await sleep(15);
    send(res, 200, 'Hello, World!', TEXT);
  }))
  // @polka/send-type serializes an object with JSON.stringify per response, as application/json.
  .get('/json', (req, res) => send(res, 200, { message: 'Hello, World!' }))
  .get('/json-comp', (req, res) => send(res, 200, jsonComp.items(jsonComp.count(req.query.n))))
  // Polka has no body parser of its own: body-parser, Express's, as Polka takes Express middleware. Its raw
  // parser buffers an application/octet-stream body (Content-Length or chunked), and `limit`
  // (https://github.com/expressjs/body-parser#limit-1) refuses one over 2 MiB with a 413 error, which
  // onError answers with its status. A request framed with neither header leaves req.body unset.
  .post('/upload', bodyParser.raw({ type: 'application/octet-stream', limit: upload.BODY_LIMIT }), (req, res) => {
    send(res, 200, upload.answer(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)), TEXT);
  })
  .get('/db', route(async (req, res) => send(res, 200, await randomWorld())))
  .get('/queries', route(async (req, res) => send(res, 200, await randomWorlds(tfb.count(req.query.queries)))))
  .get('/updates', route(async (req, res) => {
    const worlds = await randomWorlds(tfb.count(req.query.queries));
    for (const w of worlds) w.randomNumber = tfb.randomId();
    const batch = tfb.updateBatch(worlds);
    await pool.query(tfb.updateSql(batch.length), batch.flat());
    send(res, 200, worlds);
  }))
  // Polka has no template engine of its own: EJS (which escapes <%= %>) with its compiled-template cache.
  .get('/fortunes', route(async (req, res) => {
    const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
    send(res, 200, await ejs.renderFile(FORTUNES, { fortunes: tfb.withExtraFortune(rows) }, { cache: true }), HTML);
  }))
  .get('/cached-queries', route(async (req, res) => send(res, 200, await cache.sample(tfb.count(req.query.count)))))
  // Polka has no cookie support of its own: the uid is signed with cookie-signature (HMAC-SHA256 with
  // SECRET_KEY, Express's signer), so a tampered or unsigned value reads as an unknown visitor.
  .get('/session', route(async (req, res) => {
    const cookie = cookieValue(req.headers.cookie, COOKIE);
    const uid = cookie === undefined ? false : signature.unsign(decodeURIComponent(cookie), SECRET_KEY);
    const { fresh, count } = await bump(pool, uid || undefined);
    if (fresh !== undefined) {
      const value = encodeURIComponent(signature.sign(fresh, SECRET_KEY));
      res.setHeader('Set-Cookie', `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax`);
    }
    send(res, 200, `Count is ${count}`, TEXT);
  }))
  .get(ITEMS, route(async (req, res) => {
    const page = items.pageOf(req.query.page, req.query.size);
    if (page === null) return send(res, 400, BAD_PAGE);
    send(res, 200, await store.page(page));
  }))
  .get(`${ITEMS}/:id`, route(async (req, res) => {
    const id = items.itemId(req.params.id);
    const item = id === null ? null : await store.find(id);
    if (item === null) return missing(res, req);
    send(res, 200, item);
  }))
  .post(ITEMS, itemBody, route(async (req, res) => {
    const fields = items.itemFields(req.body);
    if (fields === null) return send(res, 422, UNPROCESSABLE);
    const item = await store.create(fields);
    send(res, 201, item, { Location: `${ITEMS}/${item.id}` });
  }))
  .put(`${ITEMS}/:id`, itemBody, route(async (req, res) => {
    const fields = items.itemFields(req.body);
    if (fields === null) return send(res, 422, UNPROCESSABLE);
    const id = items.itemId(req.params.id);
    const item = id === null ? null : await store.update(id, fields);
    if (item === null) return missing(res, req);
    send(res, 200, item);
  }))
  .delete(`${ITEMS}/:id`, route(async (req, res) => {
    const id = items.itemId(req.params.id);
    if (id === null || !(await store.remove(id))) return missing(res, req);
    // node's own answer: send-type would give a 204 the Content-Length of its status text.
    res.writeHead(204).end();
  }))
  .get('/hash', route(async (req, res) => {
    const raw = req.query.n;
    const reason = hashing.reason(raw);
    if (reason !== null) return send(res, 400, reason, TEXT);
    send(res, 200, hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)), TEXT);
  }));

// Polka has no WebSocket support of its own: ws shares its server.
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});

app.listen(Number(PORT), HOST);
