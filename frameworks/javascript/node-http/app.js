'use strict';
// webshootout workloads on node's own http module (see docs/workloads.md).
// Loaded directly for one process, or by cluster.js in each worker.
const cluster = require('node:cluster');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { Pool } = require('pg');
const { WebSocketServer } = require('ws');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL } = process.env;
const COOKIE = 'uid';
const INTEGER = /^-?[0-9]+$/;

// One event loop issues queries concurrently; the workers share about 16 connections in all.
const processes = cluster.isWorker ? Number(process.env.WORKERS) || 1 : 1;
const pool = new Pool({ connectionString: DATABASE_URL, max: Math.max(4, Math.ceil(16 / processes)) });

function send(res, status, type, body) {
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) });
  res.end(body);
}

const text = (res, body, status = 200) => send(res, status, 'text/plain; charset=utf-8', body);
const json = (res, value) => send(res, 200, 'application/json', JSON.stringify(value));

async function db(req, res) {
  const id = crypto.randomInt(1, 10001);
  const { rows } = await pool.query({
    name: 'world', text: 'SELECT id, randomnumber FROM world WHERE id = $1', values: [id],
  });
  json(res, { id: rows[0].id, randomNumber: rows[0].randomnumber });
}

function cookieValue(header, name) {
  for (const part of (header || '').split(';')) {
    const eq = part.indexOf('=');
    // The uid is base64url, so the value needs no decoding.
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

// Reads and bumps the visitor's counter in one transaction; an unknown visitor gets a new uid.
async function bump(uid) {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const { rows } = uid === undefined ? { rows: [] } : await client.query(
      'SELECT data FROM usersessions WHERE uid = $1 FOR UPDATE', [uid]);
    let count, fresh;
    if (rows.length === 0) {
      fresh = crypto.randomBytes(16).toString('base64url');
      count = 1;
      await client.query('INSERT INTO usersessions (uid, data) VALUES ($1, $2)',
        [fresh, JSON.stringify({ count })]);
    } else {
      count = JSON.parse(rows[0].data).count + 1;
      await client.query('UPDATE usersessions SET data = $1 WHERE uid = $2', [JSON.stringify({ count }), uid]);
    }
    await client.query('COMMIT');
    return { fresh, count };
  } catch (err) {
    await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.release();
  }
}

async function session(req, res) {
  const { fresh, count } = await bump(cookieValue(req.headers.cookie, COOKIE));
  if (fresh !== undefined) res.setHeader('Set-Cookie', `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax`);
  text(res, `Count is ${count}`);
}

async function hash(req, res, query) {
  const raw = query.get('n');
  if (raw === null) return text(res, 'missing query parameter n', 400);
  if (!INTEGER.test(raw)) return text(res, 'n must be an integer', 400);
  const n = Number(raw);
  if (n < 1 || n > 100000) return text(res, 'n must be between 1 and 100000', 400);
  let digest = crypto.createHash('sha256').update(await fs.promises.readFile(HASH_FILE)).digest();
  for (let i = 1; i < n; i++) digest = crypto.createHash('sha256').update(digest).digest();
  text(res, digest.toString('hex'));
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
  if (req.method !== 'GET') return text(res, 'method not allowed', 405);
  switch (pathname) {
    case '/plaintext': return text(res, 'Hello, World!');
    case '/json': return json(res, { message: 'Hello, World!' });
    case '/db': return db(req, res);
    case '/session': return session(req, res);
    case '/hash': return hash(req, res, new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1)));
    default:
      if (pathname.startsWith('/static/')) return staticFile(req, res, decodeURIComponent(pathname.slice(8)));
      return text(res, 'not found', 404);
  }
}

const server = http.createServer((req, res) => {
  route(req, res).catch((err) => {
    console.error(err);
    if (!res.headersSent) text(res, 'internal error', 500);
    else res.destroy();
  });
});

const wss = new WebSocketServer({ noServer: true });
wss.on('connection', (ws) => {
  ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
});
server.on('upgrade', (req, socket, head) => {
  if (req.url !== '/ws') return socket.destroy();
  wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
});

server.listen(Number(PORT), HOST);
