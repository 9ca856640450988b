'use strict';
// webshootout workloads on restify 11 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const fs = require('node:fs/promises');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const signature = require('cookie-signature');
const ejs = require('ejs');
const { Pool } = require('pg');
const restify = require('restify');
const errors = require('restify-errors');
const { WebSocketServer } = require('ws');
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const items = require('../common/items.js');
const { bump, cookieValue } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';
const FORTUNES = path.join(__dirname, '..', 'common', 'views', 'fortunes.ejs');

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// With TLS_CERT/TLS_KEY, restify's own `http2` option (node:http2's createSecureServer with these
// options): h2 by ALPN, and allowHTTP1 serves http/1.1 clients too (the WebSocket upgrade arrives on
// that side). Unset: restify's node:http server. handleUpgrades sends WebSocket upgrades through the
// router, to the /ws route. restify names itself in the Server header ("restify", its `name` default);
// node's http module sets a current Date. restify logs no requests unless an audit logger is added.
const tls = tlsFiles();
const server = restify.createServer({
  handleUpgrades: true,
  ...(tls === null ? {} : { http2: { allowHTTP1: true, ...tls } }),
});

server.use(restify.plugins.queryParser({ mapParams: false }));

// restify's text formatter sets the media type alone; charSet() appends the charset to it.
function text(res) {
  res.contentType = 'text/plain';
  res.charSet('utf-8');
}

server.get('/plaintext', (req, res, next) => {
  text(res);
  res.send('Hello, World!');
  next();
});

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
server.get('/async', async (req, res) => {
  await sleep(15);
  text(res);
  res.send('Hello, World!');
});

// restify's JSON formatter serializes with JSON.stringify on every response.
server.get('/json', (req, res, next) => {
  res.json({ message: 'Hello, World!' });
  next();
});

server.get('/db', async (req, res) => {
  res.json(await randomWorld());
});

server.get('/queries', async (req, res) => {
  res.json(await randomWorlds(tfb.count(req.query.queries)));
});

server.get('/updates', async (req, res) => {
  const worlds = await randomWorlds(tfb.count(req.query.queries));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  res.json(worlds);
});

// restify has no template engine of its own: EJS (which escapes <%= %>) with its compiled-template cache,
// and the page sent as it is (sendRaw: no formatter for text/html).
server.get('/fortunes', async (req, res) => {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  const html = await ejs.renderFile(FORTUNES, { fortunes: tfb.withExtraFortune(rows) }, { cache: true });
  res.sendRaw(200, html, { 'content-type': 'text/html; charset=utf-8' });
});

server.get('/cached-queries', async (req, res) => {
  res.json(await cache.sample(tfb.count(req.query.count)));
});

// restify has no cookie support of its own: the uid is signed with cookie-signature (HMAC-SHA256 with
// SECRET_KEY, Express's signer), so a tampered or unsigned value reads as an unknown visitor.
server.get('/session', async (req, res) => {
  const cookie = cookieValue(req.header('cookie'), COOKIE);
  const uid = cookie === undefined ? false : signature.unsign(decodeURIComponent(cookie), SECRET_KEY);
  const { fresh, count } = await bump(pool, uid || undefined);
  if (fresh !== undefined) {
    const value = encodeURIComponent(signature.sign(fresh, SECRET_KEY));
    res.header('set-cookie', `${COOKIE}=${value}; Path=/; HttpOnly; SameSite=Lax`);
  }
  text(res);
  res.send(`Count is ${count}`);
});

server.get('/hash', async (req, res) => {
  text(res);
  const raw = req.query.n;
  const reason = hashing.reason(raw);
  if (reason !== null) {
    res.send(400, reason);
    return;
  }
  res.send(hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)));
});

// crud: restify's router, one route per method; its jsonBodyParser on the routes with a body (restify's
// InvalidContentError, 400, for a body that is not JSON); plain checks of the shape (../common/items.js)
// refused with restify-errors' UnprocessableEntityError (422), NotFoundError and BadRequestError thrown from
// the async handlers, which restify answers with their status; pg's queries.
const ITEMS = '/items';
const store = items.pgItems(pool);
const itemBody = restify.plugins.jsonBodyParser();

function fieldsOf(req) {
  const fields = items.itemFields(req.body);
  if (fields === null) throw new errors.UnprocessableEntityError('expected an object with a string name and a 32-bit integer quantity');
  return fields;
}

function missing(req) {
  return new errors.NotFoundError(`no item ${req.params.id}`);
}

// A path id that is not an int4 names no row.
function idOf(req) {
  const id = items.itemId(req.params.id);
  if (id === null) throw missing(req);
  return id;
}

function found(req, item) {
  if (item === null) throw missing(req);
  return item;
}

server.get(ITEMS, async (req, res) => {
  const page = items.pageOf(req.query.page, req.query.size);
  if (page === null) throw new errors.BadRequestError('page must be an integer >= 1, size an integer in 1..100');
  res.json(await store.page(page));
});

server.get(`${ITEMS}/:id`, async (req, res) => {
  res.json(found(req, await store.find(idOf(req))));
});

server.post(ITEMS, itemBody, async (req, res) => {
  const item = await store.create(fieldsOf(req));
  res.header('Location', `${ITEMS}/${item.id}`);
  res.json(201, item);
});

server.put(`${ITEMS}/:id`, itemBody, async (req, res) => {
  const fields = fieldsOf(req);
  res.json(found(req, await store.update(idOf(req), fields)));
});

server.del(`${ITEMS}/:id`, async (req, res) => {
  if (!(await store.remove(idOf(req)))) throw missing(req);
  res.send(204);
});

// restify's serveStaticFiles plugin (pillarjs/send, as Express's static): /static/* from STATIC_DIR.
server.get('/static/*', restify.plugins.serveStaticFiles(STATIC_DIR));

// restify has no WebSocket of its own; with handleUpgrades the upgrade reaches this route, which claims
// the socket (res.claimUpgrade, restify's documented upgrade path) and hands it to ws.
const wss = new WebSocketServer({ noServer: true });
server.get('/ws', (req, res, next) => {
  if (typeof res.claimUpgrade !== 'function') {
    res.send(426, 'WebSocket upgrade required');
    next(false);
    return;
  }
  const { socket, head } = res.claimUpgrade();
  wss.handleUpgrade(req, socket, head, (ws) => {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });
  next(false);
});

server.listen(Number(PORT), HOST);
