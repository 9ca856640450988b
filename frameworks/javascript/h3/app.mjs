// webshootout workloads on h3 2 (see docs/workloads.md), an ES module as h3 is.
// `node app.mjs` serves in one process, `node ../common/cluster.js app.mjs` in WORKERS processes (node 20.19
// and later require() an ES module without top-level await).
import fs from 'node:fs/promises';
import http from 'node:http';
import http2 from 'node:http2';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import wsAdapter from 'crossws/adapters/node';
import ejs from 'ejs';
import { H3, defineWebSocketHandler, getQuery, getSession, serveStatic, toNodeHandler, updateSession } from 'h3';
import pg from 'pg';
import env from '../common/env.js';
import hashing from '../common/hash.js';
import sessions from '../common/sessions.js';
import tfb from '../common/tfb.js';
import tlsConfig from '../common/tls.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const TEXT = 'text/plain; charset=utf-8';
const FORTUNES = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'common', 'views', 'fortunes.ejs');

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = env.positiveInteger('DB_POOL');
const pool = new pg.Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// h3's sessions: the session lives in a sealed cookie (iron: AES-256-CBC and HMAC-SHA256 with keys derived
// from SECRET_KEY by h3's default PBKDF2, 8192 iterations), and holds only the visitor's uid; the counter is
// the shared usersessions row (../common/sessions.js). Not Secure: the check speaks cleartext.
const SESSION = { name: 'uid', password: SECRET_KEY, cookie: { secure: false, httpOnly: true, sameSite: 'lax', path: '/' } };

// debug off (h3's default): unhandled errors answer 500 without their details.
const app = new H3({
  // h3 sets no Server header of its own (node's http module sets a current Date on every response): added
  // to every answer, error answers included.
  onResponse(response) {
    response.headers.set('server', 'h3');
  },
});

function text(event, body, status = 200) {
  event.res.status = status;
  event.res.headers.set('content-type', TEXT);
  return body;
}

app.get('/plaintext', (event) => text(event, 'Hello, World!'));

// async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
app.get('/async', async (event) => {
  await sleep(15);
  return text(event, 'Hello, World!');
});

// A returned object is serialized by h3 with JSON.stringify on every response.
app.get('/json', () => ({ message: 'Hello, World!' }));

app.get('/db', () => randomWorld());

app.get('/queries', (event) => randomWorlds(tfb.count(getQuery(event).queries)));

app.get('/updates', async (event) => {
  const worlds = await randomWorlds(tfb.count(getQuery(event).queries));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  const batch = tfb.updateBatch(worlds);
  await pool.query(tfb.updateSql(batch.length), batch.flat());
  return worlds;
});

// h3 has no template engine (its html`` helper escapes one template's values but does not nest a row
// list): EJS, which escapes <%= %>, with its compiled-template cache.
app.get('/fortunes', async (event) => {
  const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
  event.res.headers.set('content-type', 'text/html; charset=utf-8');
  return ejs.renderFile(FORTUNES, { fortunes: tfb.withExtraFortune(rows) }, { cache: true });
});

app.get('/cached-queries', (event) => cache.sample(tfb.count(getQuery(event).count)));

app.get('/session', async (event) => {
  // A missing, tampered or foreign cookie unseals to an empty session: an unknown visitor.
  const session = await getSession(event, SESSION);
  const { fresh, count } = await sessions.bump(pool, session.data.uid);
  if (fresh !== undefined) await updateSession(event, SESSION, { uid: fresh });
  return text(event, `Count is ${count}`);
});

app.get('/hash', async (event) => {
  const raw = getQuery(event).n;
  const reason = hashing.reason(raw);
  if (reason !== null) return text(event, reason, 400);
  return text(event, hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw)));
});

// h3's serveStatic with its documented fs callbacks; it refuses non-canonical paths (no ../ escapes).
function staticFile(id) {
  return path.join(STATIC_DIR, id.slice('/static'.length));
}
app.get('/static/**', (event) => serveStatic(event, {
  indexNames: [],
  getContents: (id) => fs.readFile(staticFile(id)),
  getMeta: async (id) => {
    const stats = await fs.stat(staticFile(id)).catch(() => undefined);
    if (stats?.isFile()) return { size: stats.size, mtime: stats.mtimeMs };
    return undefined;
  },
}));

// h3's WebSocket route (crossws hooks); crossws's node adapter, on ws, takes the server's upgrades and
// resolves their hooks through the app, as h3's WebSocket guide shows for node.
app.get('/ws', defineWebSocketHandler({
  message(peer, message) {
    peer.send(message.text());
  },
}));
const websockets = wsAdapter({ resolve: async (request) => (await app.fetch(request)).crossws });

// With TLS_CERT/TLS_KEY, h3's node handler on node:http2's secure server: h2 by ALPN, and allowHTTP1
// serves http/1.1 clients too (the WebSocket upgrade arrives on that side). Unset: node:http.
const tls = tlsConfig.tlsFiles();
const handler = toNodeHandler(app);
const server = tls === null ? http.createServer(handler) : http2.createSecureServer({ allowHTTP1: true, ...tls }, handler);
server.on('upgrade', (req, socket, head) => websockets.handleUpgrade(req, socket, head));
server.listen(Number(PORT), HOST);
