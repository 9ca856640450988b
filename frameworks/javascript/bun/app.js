// webshootout workloads on Bun.serve, Bun's own HTTP server (see docs/workloads.md).
// `bun app.js` serves in one process; `bun ../common/bun-cluster.js app.js` starts WORKERS of them on
// one port (REUSE_PORT=1: reusePort, as Bun's docs recommend for several CPUs).
import { SQL } from 'bun';
import path from 'node:path';
import ejs from 'ejs';
import { positiveInteger } from '../common/env.js';
import hashing from '../common/hash.js';
import { bumpSql, cookieValue } from '../common/sessions.js';
import tfb from '../common/tfb.js';
import { tlsFiles } from '../common/tls.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL } = process.env;
const COOKIE = 'uid';
const SERVER = { Server: 'Bun' };
const TEXT = { ...SERVER, 'Content-Type': 'text/plain; charset=utf-8' };

// Bun.sql, Bun's built-in PostgreSQL client, pools its connections: at most DB_POOL per process
// (docs/fairness.md). Its tagged queries are prepared statements.
const poolSize = positiveInteger('DB_POOL');
const sql = new SQL({ url: DATABASE_URL, max: poolSize });

const text = (body, status = 200) => new Response(body, { status, headers: TEXT });
const json = (value) => Response.json(value, { headers: SERVER });

const { randomWorld, randomWorlds } = tfb.sqlWorlds(sql);

// Bun has no template engine: EJS (which escapes <%= %>), compiled once at start, called directly.
const fortunesTemplate = ejs.compile(
  await Bun.file(path.join(import.meta.dir, '..', 'common', 'views', 'fortunes.ejs')).text());

const cache = tfb.sqlWorldCache(sql);

// With TLS_CERT/TLS_KEY, Bun.serve's own TLS, and http2: true (Bun 1.4's HTTP/2 server) so that ALPN offers
// h2 beside http/1.1. Unset: cleartext HTTP/1.1 as before; http2 stays off there, as it would also take h2c.
const tls = tlsFiles();

const server = Bun.serve({
  hostname: HOST,
  port: Number(PORT),
  reusePort: process.env.REUSE_PORT === '1',
  ...(tls && { tls, http2: true }),
  routes: {
    '/plaintext': () => text('Hello, World!'),
    // async: Bun.sleep, Bun's own timer (the event loop goes on serving), then the plaintext answer.
    '/async': async () => {
      await Bun.sleep(15);
      return text('Hello, World!');
    },
    '/json': () => json({ message: 'Hello, World!' }),
    '/db': async () => json(await randomWorld()),
    '/queries': async (req) => json(await randomWorlds(tfb.count(new URL(req.url).searchParams.get('queries')))),
    '/updates': async (req) => {
      const worlds = await randomWorlds(tfb.count(new URL(req.url).searchParams.get('queries')));
      for (const w of worlds) w.randomNumber = tfb.randomId();
      const batch = tfb.updateBatch(worlds);
      await sql.unsafe(tfb.updateSql(batch.length), batch.flat());
      return json(worlds);
    },
    '/fortunes': async () => {
      const rows = await sql`SELECT id, message FROM fortune`;
      return new Response(fortunesTemplate({ fortunes: tfb.withExtraFortune(rows) }),
        { headers: { ...SERVER, 'Content-Type': 'text/html; charset=utf-8' } });
    },
    '/cached-queries': async (req) => json(await cache.sample(tfb.count(new URL(req.url).searchParams.get('count')))),
    '/session': async (req) => {
      const { fresh, count } = await bumpSql(sql, cookieValue(req.headers.get('cookie'), COOKIE));
      const headers = { ...TEXT };
      if (fresh !== undefined) headers['Set-Cookie'] = `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax`;
      return new Response(`Count is ${count}`, { headers });
    },
    '/hash': async (req) => {
      const raw = new URL(req.url).searchParams.get('n');
      const reason = hashing.reason(raw);
      if (reason !== null) return text(reason, 400);
      return text(hashing.iteratedSha256Hex(new Uint8Array(await Bun.file(HASH_FILE).arrayBuffer()), Number(raw)));
    },
    // Bun's static files: a Response of Bun.file, sent with sendfile and typed from the name.
    '/static/*': async (req) => {
      const name = path.normalize('/' + decodeURIComponent(new URL(req.url).pathname.slice('/static/'.length)));
      const file = Bun.file(path.join(STATIC_DIR, name));
      if (!(await file.exists())) return text('not found', 404);
      return new Response(file, { headers: SERVER });
    },
    '/ws': (req, srv) => (srv.upgrade(req) ? undefined : text('expected a WebSocket upgrade', 400)),
  },
  fetch: () => text('not found', 404),
  websocket: {
    message(ws, message) {
      ws.send(message);
    },
  },
  error(err) {
    console.error(err);
    return text('internal error', 500);
  },
});

// Bun.serve logs nothing per request; the address is for the harness's log only.
console.error(`listening on ${server.url}`);
