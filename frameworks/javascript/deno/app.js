// webshootout workloads on Deno's own HTTP server (see docs/workloads.md), run by `deno serve`, the
// CLI form of Deno.serve: this module's default export is the server's handler. `deno serve --parallel`
// runs DENO_JOBS = WORKERS copies of it on one port.
import { createRequire } from 'node:module';
import { setTimeout as sleep } from 'node:timers/promises';
import ejs from 'ejs';
import postgres from 'postgres';

// The shared helpers are CommonJS (node's stacks use them too).
const require = createRequire(import.meta.url);
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const { bumpSql, cookieValue } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');

const { HASH_FILE, STATIC_DIR, DATABASE_URL } = Deno.env.toObject();
const COOKIE = 'uid';
const SERVER = { Server: 'Deno' };
const TEXT = { ...SERVER, 'Content-Type': 'text/plain; charset=utf-8' };
const JSON_TYPE = { ...SERVER, 'Content-Type': 'application/json' };

// postgres.js pools its connections: at most DB_POOL per process (docs/fairness.md); its tagged
// queries are prepared statements.
const sql = postgres(DATABASE_URL, { max: positiveInteger('DB_POOL') });

// deno serve answers SIGTERM with a graceful shutdown of the HTTP server, but the pool's open
// connections would keep the process alive: close them, then exit.
Deno.addSignalListener('SIGTERM', () => {
  sql.end({ timeout: 1 }).finally(() => Deno.exit(0));
});

const text = (body, status = 200) => new Response(body, { status, headers: TEXT });
const json = (value) => new Response(JSON.stringify(value), { headers: JSON_TYPE });

const { randomWorld, randomWorlds } = tfb.sqlWorlds(sql);

async function updates(url) {
  const worlds = await randomWorlds(tfb.count(url.searchParams.get('queries')));
  for (const w of worlds) w.randomNumber = tfb.randomId();
  // postgres.js's documented form of several updates in one statement: sql(rows) as a VALUES list.
  await sql`UPDATE world SET randomnumber = v.r::int
    FROM (VALUES ${sql(tfb.updateBatch(worlds))}) AS v (id, r) WHERE world.id = v.id::int`;
  return json(worlds);
}

// Deno has no template engine: EJS (which escapes <%= %>), compiled once at start, called directly.
const fortunesTemplate = ejs.compile(
  await Deno.readTextFile(new URL('../common/views/fortunes.ejs', import.meta.url)));

async function fortunes() {
  const rows = await sql`SELECT id, message FROM fortune`;
  return new Response(fortunesTemplate({ fortunes: tfb.withExtraFortune(rows) }),
    { headers: { ...SERVER, 'Content-Type': 'text/html; charset=utf-8' } });
}

const cache = tfb.sqlWorldCache(sql);

async function session(req) {
  const { fresh, count } = await bumpSql(sql, cookieValue(req.headers.get('cookie'), COOKIE));
  const headers = { ...TEXT };
  if (fresh !== undefined) headers['Set-Cookie'] = `${COOKIE}=${fresh}; Path=/; HttpOnly; SameSite=Lax`;
  return new Response(`Count is ${count}`, { headers });
}

async function hash(url) {
  const raw = url.searchParams.get('n');
  const reason = hashing.reason(raw);
  if (reason !== null) return text(reason, 400);
  return text(hashing.iteratedSha256Hex(await Deno.readFile(HASH_FILE), Number(raw)));
}

// Without jsr's @std/http (not reachable here), a file is served as Deno's docs show: its readable
// stream as the body, with its size.
async function staticFile(name) {
  const parts = name.split('/');
  if (parts.some((p) => p === '..' || p === '')) return text('not found', 404);
  let file;
  try {
    file = await Deno.open(`${STATIC_DIR}/${name}`, { read: true });
  } catch {
    return text('not found', 404);
  }
  const { size, isFile } = await file.stat();
  if (!isFile) {
    file.close();
    return text('not found', 404);
  }
  const type = name.endsWith('.html') ? 'text/html; charset=utf-8' : 'application/octet-stream';
  return new Response(file.readable, { headers: { ...SERVER, 'Content-Type': type, 'Content-Length': String(size) } });
}

// async: a 15 ms wait on the event loop's timer, through node:timers/promises (Deno's Node API; Deno's
// own delay, @std/async, is on jsr, not reachable here), then the plaintext answer.
async function wait() {
  await sleep(15);
  return text('Hello, World!');
}

function websocket(req) {
  if (req.headers.get('upgrade') !== 'websocket') return text('expected a WebSocket upgrade', 400);
  const { socket, response } = Deno.upgradeWebSocket(req);
  socket.onmessage = (event) => socket.send(event.data);
  return response;
}

export default {
  async fetch(req) {
    const url = new URL(req.url);
    if (req.method !== 'GET') return text('method not allowed', 405);
    switch (url.pathname) {
      case '/plaintext': return text('Hello, World!');
      case '/async': return wait();
      case '/json': return json({ message: 'Hello, World!' });
      case '/db': return json(await randomWorld());
      case '/queries': return json(await randomWorlds(tfb.count(url.searchParams.get('queries'))));
      case '/updates': return updates(url);
      case '/fortunes': return fortunes();
      case '/cached-queries': return json(await cache.sample(tfb.count(url.searchParams.get('count'))));
      case '/session': return session(req);
      case '/hash': return hash(url);
      case '/ws': return websocket(req);
      default:
        if (url.pathname.startsWith('/static/')) return staticFile(decodeURIComponent(url.pathname.slice(8)));
        return text('not found', 404);
    }
  },
  // Deno.serve's default onError logs the error and answers 500.
};
