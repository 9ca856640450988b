'use strict';
// webshootout workloads on Express 5 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes, and
// `node app.js --sessions=sqlite` keeps the session counters in SQLite instead of PostgreSQL.
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const http = require('node:http');
const https = require('node:https');
const { setTimeout: sleep } = require('node:timers/promises');
const compression = require('compression');
const cookieParser = require('cookie-parser');
const express = require('express');
const { Pool } = require('pg');
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
const COOKIE_OPTIONS = { signed: true, httpOnly: true, sameSite: 'lax', path: '/' };

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

// A counter store: bump(uid) -> { fresh, count }, fresh being the new visitor's uid (else undefined).
function postgresSessions() {
  return { bump: (uid) => bump(pool, uid) };
}

function sqliteSessions() {
  // Loaded only here: the PostgreSQL setups never need the native module at run time.
  const Database = require('better-sqlite3');
  const db = new Database(require('node:path').join(process.env.RUN_DIR, 'sessions.sqlite3'));
  // WAL with synchronous=NORMAL is SQLite's recommended setting for a server's write load.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec('CREATE TABLE IF NOT EXISTS usersessions (uid TEXT PRIMARY KEY, data TEXT NOT NULL)');
  const select = db.prepare('SELECT data FROM usersessions WHERE uid = ?');
  const insert = db.prepare('INSERT INTO usersessions (uid, data) VALUES (?, ?)');
  const update = db.prepare('UPDATE usersessions SET data = ? WHERE uid = ?');
  const visit = db.transaction((uid) => {
    const row = uid === undefined ? undefined : select.get(uid);
    if (row === undefined) {
      const fresh = crypto.randomBytes(16).toString('base64url');
      insert.run(fresh, JSON.stringify({ count: 1 }));
      return { fresh, count: 1 };
    }
    const count = JSON.parse(row.data).count + 1;
    update.run(JSON.stringify({ count }), uid);
    return { fresh: undefined, count };
  });
  return { bump: async (uid) => visit(uid) };
}

const sessions = process.argv.includes('--sessions=sqlite') ? sqliteSessions() : postgresSessions();

const app = express();
app.disable('x-powered-by');
// Express's view engine with EJS, which escapes <%= %>; NODE_ENV=production turns on the view cache.
app.set('views', require('node:path').join(__dirname, '..', 'common', 'views'));
app.set('view engine', 'ejs');
// Express sets no Server header of its own; node's http module sets a current Date on every response.
app.use((req, res, next) => {
  res.set('Server', 'Express');
  next();
});
// compression, the Express team's middleware, at its defaults (gzip level 6, deflate and br by
// Accept-Encoding, 1 kb threshold, Vary: Accept-Encoding) on every compressible answer, as its README
// applies it; the check's other requests send no Accept-Encoding.
app.use(compression());
app.use('/static', express.static(STATIC_DIR));
app.use(cookieParser(SECRET_KEY));

app.get('/plaintext', (req, res) => {
  res.type('text/plain').send('Hello, World!');
});

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
app.get('/async', async (req, res) => {
  await sleep(15);
  res.type('text/plain').send('Hello, World!');
});

app.get('/json', (req, res) => {
  res.json({ message: 'Hello, World!' });
});

app.get('/json-comp', (req, res) => {
  res.json(jsonComp.items(jsonComp.count(req.query.n)));
});

// express.raw (body-parser's raw parser, Express's own) buffers an application/octet-stream body, framed by
// Content-Length or chunked; its `limit` (https://expressjs.com/en/5x/api.html#express.raw) answers 413 past
// 2 MiB. A request framed with neither header has no body to parse and leaves req.body unset.
app.post('/upload', express.raw({ type: 'application/octet-stream', limit: upload.BODY_LIMIT }), (req, res) => {
  res.type('text/plain').send(upload.answer(Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0)));
});

app.get('/db', async (req, res) => {
  const { rows } = await pool.query({
    name: 'world', text: 'SELECT id, randomnumber FROM world WHERE id = $1', values: [crypto.randomInt(1, 10001)],
  });
  res.json({ id: rows[0].id, randomNumber: rows[0].randomnumber });
});

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

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
  res.render('fortunes', { fortunes: tfb.withExtraFortune(rows) });
});

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

app.get('/cached-queries', async (req, res) => {
  res.json(await cache.sample(tfb.count(req.query.count)));
});

app.get('/session', async (req, res) => {
  // A tampered or unsigned cookie reads as false: that visitor is unknown.
  const uid = req.signedCookies[COOKIE] || undefined;
  const { fresh, count } = await sessions.bump(uid);
  if (fresh !== undefined) res.cookie(COOKIE, fresh, COOKIE_OPTIONS);
  res.type('text/plain').send(`Count is ${count}`);
});

app.get('/hash', async (req, res) => {
  const raw = req.query.n;
  const reason = hashing.reason(raw);
  if (reason !== null) return res.status(400).type('text/plain').send(reason);
  res.type('text/plain').send(hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)));
});

// crud: Express's router, one route per method, express.json (body-parser's JSON parser, which answers 400
// to a body that is not JSON; strict off so that JSON that is not an object reaches the shape check and
// gets 422), plain checks of the shape, and pg's queries.
const ITEMS = '/items';
const store = items.pgItems(pool);
const itemBody = express.json({ strict: false });

function notFound(res, raw) {
  res.status(404).json({ error: `no item ${raw}` });
}

app.get(ITEMS, async (req, res) => {
  const page = items.pageOf(req.query.page, req.query.size);
  if (page === null) return res.status(400).json({ error: 'page must be an integer >= 1, size an integer in 1..100' });
  res.json(await store.page(page));
});

app.get(`${ITEMS}/:id`, async (req, res) => {
  const id = items.itemId(req.params.id);
  const item = id === null ? null : await store.find(id);
  if (item === null) return notFound(res, req.params.id);
  res.json(item);
});

const UNPROCESSABLE = { error: 'expected an object with a string name and a 32-bit integer quantity' };

app.post(ITEMS, itemBody, async (req, res) => {
  const fields = items.itemFields(req.body);
  if (fields === null) return res.status(422).json(UNPROCESSABLE);
  const item = await store.create(fields);
  res.status(201).location(`${ITEMS}/${item.id}`).json(item);
});

app.put(`${ITEMS}/:id`, itemBody, async (req, res) => {
  const fields = items.itemFields(req.body);
  if (fields === null) return res.status(422).json(UNPROCESSABLE);
  const id = items.itemId(req.params.id);
  const item = id === null ? null : await store.update(id, fields);
  if (item === null) return notFound(res, req.params.id);
  res.json(item);
});

app.delete(`${ITEMS}/:id`, async (req, res) => {
  const id = items.itemId(req.params.id);
  if (id === null || !(await store.remove(id))) return notFound(res, req.params.id);
  res.status(204).end();
});

// With TLS_CERT/TLS_KEY, node's https server (HTTP/1.1 over TLS): Express's req/res extend node:http's
// objects and do not run on node:http2's, so there is no HTTP/2. Unset: cleartext as before.
const tls = tlsFiles();
const server = tls === null ? http.createServer(app) : https.createServer(tls, app);
// Express has no WebSocket support of its own: ws shares the HTTP server.
const wss = new WebSocketServer({ server, path: '/ws' });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});

server.listen(Number(PORT), HOST);
