'use strict';
// webshootout workloads on node's own http module (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const http2 = require('node:http2');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const zlib = require('node:zlib');
const ejs = require('ejs');
const { Pool } = require('pg');
const { WebSocketServer } = require('ws');
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const jsonComp = require('../common/json-comp.js');
const { bump } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');
const { BODY_LIMIT } = require('../common/upload.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL } = process.env;
const COOKIE = 'uid';

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

function send(res, status, type, body) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const text = (res, body, status = 200) => send(res, status, 'text/plain; charset=utf-8', body);
const json = (res, value) => send(res, 200, 'application/json', JSON.stringify(value));

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
async function wait(res) {
  await sleep(15);
  text(res, 'Hello, World!');
}

// node:http has no compression of its own: node:zlib as the zlib docs' HTTP server example uses it
// (https://nodejs.org/docs/latest-v20.x/api/zlib.html#compressing-http-requests-and-responses): Vary on
// every answer, deflate, gzip or br picked by that example's (not fully conformant) Accept-Encoding tests,
// at zlib's default levels; the buffer forms run on libuv's threadpool as the streams do.
const ENCODINGS = [[/\bdeflate\b/, 'deflate', zlib.deflate], [/\bgzip\b/, 'gzip', zlib.gzip],
  [/\bbr\b/, 'br', zlib.brotliCompress]];

function compressed(req, res, type, body) {
  res.setHeader('Vary', 'Accept-Encoding');
  const accept = req.headers['accept-encoding'] || '';
  const found = ENCODINGS.find(([test]) => test.test(accept));
  if (found === undefined) return send(res, 200, type, body);
  const [, encoding, compress] = found;
  compress(body, (err, data) => {
    if (err) {
      console.error(err);
      return text(res, 'internal error', 500);
    }
    res.writeHead(200, { 'Content-Type': type, 'Content-Encoding': encoding, 'Content-Length': data.length });
    res.end(data);
  });
}

function jsonCompressed(req, res, query) {
  compressed(req, res, 'application/json', JSON.stringify(jsonComp.items(jsonComp.count(query.get('n')))));
}

// node:http has no body-size setting: the handler refuses a Content-Length over 2 MiB before reading, and a
// chunked body once 2 MiB have come, with 413 and, over HTTP/1.1, Connection: close, so the rest of the body
// is not read (HTTP/2 forbids that header). Otherwise each chunk of the request
// stream goes into the SHA-256 as it arrives.
function uploaded(req, res) {
  const tooLarge = () => {
    const close = req.httpVersionMajor === 1 ? { Connection: 'close' } : {};
    res.writeHead(413, { 'Content-Type': 'text/plain; charset=utf-8', ...close });
    res.end('body over 2 MiB');
  };
  if (Number(req.headers['content-length']) > BODY_LIMIT) return tooLarge();
  const digest = crypto.createHash('sha256');
  let length = 0;
  req.on('data', (chunk) => {
    if (res.headersSent) return;
    length += chunk.length;
    if (length > BODY_LIMIT) return tooLarge();
    digest.update(chunk);
  });
  req.on('end', () => {
    if (!res.headersSent) text(res, `${length} ${digest.digest('hex')}`);
  });
}

async function db(req, res) {
  const id = crypto.randomInt(1, 10001);
  const { rows } = await pool.query({
    name: 'world', text: 'SELECT id, randomnumber FROM world WHERE id = $1', values: [id],
  });
  json(res, { id: rows[0].id, randomNumber: rows[0].randomnumber });
}

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

async function queries(req, res, query) {
  json(res, await randomWorlds(tfb.count(query.get('queries'))));
}

async function updates(req, res, query) {
  const worlds = await randomWorlds(tfb.count(query.get('queries')));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  json(res, worlds);
}

// node:http has no template engine: EJS (which escapes <%= %>) compiled once at start, called directly.
const fortunesTemplate = ejs.compile(
  fs.readFileSync(path.join(__dirname, '..', 'common', 'views', 'fortunes.ejs'), 'utf8'));

async function fortunes(req, res) {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  send(res, 200, 'text/html; charset=utf-8', fortunesTemplate({ fortunes: tfb.withExtraFortune(rows) }));
}

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

async function cached(req, res, query) {
  json(res, await cache.sample(tfb.count(query.get('count'))));
}

function cookieValue(header, name) {
  for (const part of (header || '').split(';')) {
    const eq = part.indexOf('=');
    // The uid is base64url, so the value needs no decoding.
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

async function session(req, res) {
  const { fresh, count } = await bump(pool, cookieValue(req.headers.cookie, COOKIE));
  if (fresh !== undefined) res.setHeader('Set-Cookie', `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax`);
  text(res, `Count is ${count}`);
}

async function hash(req, res, query) {
  const raw = query.get('n');
  const reason = hashing.reason(raw);
  if (reason !== null) return text(res, reason, 400);
  text(res, hashing.iteratedSha256Hex(await fs.promises.readFile(HASH_FILE), Number(raw)));
}

// node:http has no static handler: stream the file with its size, as a static server would.
async function staticFile(req, res, name) {
  const file = path.join(STATIC_DIR, path.normalize('/' + name));
  let stat;
  try {
    stat = await fs.promises.stat(file);
  } catch {
    return text(res, 'not found', 404);
  }
  if (!stat.isFile()) return text(res, 'not found', 404);
  const type = path.extname(file) === '.html' ? 'text/html; charset=utf-8' : 'application/octet-stream';
  res.writeHead(200, { 'Content-Type': type, 'Content-Length': stat.size, 'Last-Modified': stat.mtime.toUTCString() });
  fs.createReadStream(file).on('error', (err) => res.destroy(err)).pipe(res);
}

async function route(req, res) {
  const q = req.url.indexOf('?');
  const pathname = q === -1 ? req.url : req.url.slice(0, q);
  if (req.method === 'POST' && pathname === '/upload') return uploaded(req, res);
  if (req.method !== 'GET') return text(res, 'method not allowed', 405);
  const query = () => new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1));
  switch (pathname) {
    case '/plaintext': return text(res, 'Hello, World!');
    case '/async': return wait(res);
    case '/json': return json(res, { message: 'Hello, World!' });
    case '/json-comp': return jsonCompressed(req, res, query());
    case '/db': return db(req, res);
    case '/session': return session(req, res);
    case '/hash': return hash(req, res, query());
    case '/queries': return queries(req, res, query());
    case '/updates': return updates(req, res, query());
    case '/fortunes': return fortunes(req, res);
    case '/cached-queries': return cached(req, res, query());
    default:
      if (pathname.startsWith('/static/')) return staticFile(req, res, decodeURIComponent(pathname.slice(8)));
      return text(res, 'not found', 404);
  }
}

function handle(req, res) {
  // node's http (and http2's compatibility API) sets a current Date on every response, but no Server header.
  res.setHeader('Server', 'Node.js');
  route(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) text(res, 'internal error', 500);
    else res.destroy();
  });
}

// With TLS_CERT/TLS_KEY, node:http2's secure server: HTTP/2 by ALPN, and allowHTTP1 hands HTTP/1.1
// connections (and the WebSocket upgrade) to node:http's parser on the same port; the compatibility API
// gives the same handler both. Unset: cleartext HTTP/1.1 as before.
const tls = tlsFiles();
const server = tls === null
  ? http.createServer(handle)
  : http2.createSecureServer({ allowHTTP1: true, ...tls }, handle);

const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});
server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});

server.listen(Number(PORT), HOST);
