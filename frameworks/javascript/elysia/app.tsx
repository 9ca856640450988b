// webshootout workloads on Elysia, on Bun (see docs/workloads.md).
// `bun app.tsx` serves in one process; `bun ../common/bun-cluster.js app.tsx` starts WORKERS of them on
// one port (REUSE_PORT=1: reusePort, as Bun's docs recommend for several CPUs).
import { Elysia } from 'elysia';
import { html, Html } from '@elysiajs/html';
import { staticPlugin } from '@elysiajs/static';
import { SQL } from 'bun';
import { positiveInteger } from '../common/env.js';
import hashing from '../common/hash.js';
import { bumpSql } from '../common/sessions.js';
import tfb from '../common/tfb.js';
import { tlsFiles } from '../common/tls.js';

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL } = process.env;

// Bun.sql, Bun's built-in PostgreSQL client: at most DB_POOL connections per process (docs/fairness.md).
const sql = new SQL({ url: DATABASE_URL, max: positiveInteger('DB_POOL') });

const { randomWorld, randomWorlds } = tfb.sqlWorlds(sql);

const cache = tfb.worldCache(async () => {
  const rows = await sql`SELECT id, randomnumber FROM world`;
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// @elysiajs/html's JSX (Kita Html): `safe` escapes the message.
function Fortunes({ fortunes }: { fortunes: { id: number; message: string }[] }) {
  return (
    <>
      {'<!DOCTYPE html>'}
      <html>
        <head><title>Fortunes</title></head>
        <body>
          <table>
            <tr><th>id</th><th>message</th></tr>
            {fortunes.map((f) => <tr><td>{f.id}</td><td safe>{f.message}</td></tr>)}
          </table>
        </body>
      </html>
    </>
  );
}

const TEXT = 'text/plain; charset=utf-8';

// With TLS_CERT/TLS_KEY, Bun.serve's own TLS through listen()'s options, and http2: true (Bun 1.4's HTTP/2
// server) so that ALPN offers h2 beside http/1.1. Unset: cleartext HTTP/1.1 as before; http2 stays off
// there, as it would also take h2c.
const tls = tlsFiles();

// The uid cookie is not signed: Elysia answers 400 to a bad signature before the handler runs, where the
// contract wants an unknown visitor; a random 128-bit uid is as unguessable as a signature.
const app = new Elysia()
  // Elysia sets no Server header of its own; Bun.serve adds a current Date to every response.
  .headers({ server: 'Elysia' })
  .use(html())
  .use(await staticPlugin({ assets: STATIC_DIR, prefix: '/static' }))
  .get('/plaintext', ({ set }) => {
    set.headers['content-type'] = TEXT;
    return 'Hello, World!';
  })
  // async: Bun.sleep, Bun's own timer (the event loop goes on serving), then the plaintext answer.
  .get('/async', async ({ set }) => {
    await Bun.sleep(15);
    set.headers['content-type'] = TEXT;
    return 'Hello, World!';
  })
  .get('/json', () => ({ message: 'Hello, World!' }))
  .get('/db', () => randomWorld())
  .get('/queries', ({ query }) => randomWorlds(tfb.count(query.queries)))
  .get('/updates', async ({ query }) => {
    const worlds = await randomWorlds(tfb.count(query.queries));
    for (const w of worlds) w.randomNumber = tfb.randomId();
    const batch = tfb.updateBatch(worlds);
    await sql.unsafe(tfb.updateSql(batch.length), batch.flat());
    return worlds;
  })
  .get('/fortunes', async ({ set }) => {
    // The html plugin would answer charset=utf8; the contract names utf-8.
    set.headers['content-type'] = 'text/html; charset=utf-8';
    const rows = await sql`SELECT id, message FROM fortune`;
    return <Fortunes fortunes={tfb.withExtraFortune(rows)} />;
  })
  .get('/cached-queries', ({ query }) => cache.sample(tfb.count(query.count)))
  .get('/session', async ({ cookie: { uid }, set }) => {
    const { fresh, count } = await bumpSql(sql, typeof uid.value === 'string' ? uid.value : undefined);
    if (fresh !== undefined) uid.set({ value: fresh, path: '/', httpOnly: true, sameSite: 'lax' });
    set.headers['content-type'] = TEXT;
    return `Count is ${count}`;
  })
  .get('/hash', async ({ query, set }) => {
    set.headers['content-type'] = TEXT;
    const reason = hashing.reason(query.n);
    if (reason !== null) {
      set.status = 400;
      return reason;
    }
    return hashing.iteratedSha256Hex(new Uint8Array(await Bun.file(HASH_FILE).arrayBuffer()), Number(query.n));
  })
  .ws('/ws', {
    message(ws, message) {
      // Elysia parses JSON-looking text: echo the frame's own bytes, not the parsed value.
      ws.raw.send(message as any);
    },
  })
  .listen({
    hostname: HOST,
    port: Number(PORT),
    reusePort: process.env.REUSE_PORT === '1',
    ...(tls && { tls, http2: true }),
  });
