'use strict';
// The Hono app of hono-bun, hono-deno and hono-node: one route table on three runtimes. What differs
// between them is passed in: hono's own exports (each stack pins and installs its hono; common/ has no
// node_modules to import it from), the runtime adapter's serveStatic and upgradeWebSocket, and the
// database client's queries.
const { setTimeout: sleep } = require('node:timers/promises');
const hashing = require('./hash.js');
const jsonComp = require('./json-comp.js');
const tfb = require('./tfb.js');
const upload = require('./upload.js');

const COOKIE = 'uid';

// hono: { Hono, html, getSignedCookie, setSignedCookie, compress, bodyLimit } (the last two from
// hono/compress and hono/body-limit: without them there is no json-comp or upload route);
// adapter: { serveStatic, upgradeWebSocket };
// db: { randomWorld, randomWorlds, cache (tfb.worldCache), saveWorlds(batch of tfb.updateBatch),
// fortunes() (the fortune rows), bump(uid) (sessions.js) }; readHashFile(): HASH_FILE's bytes.
function honoApp({ hono, adapter, db, readHashFile, staticDir, secretKey }) {
  const { Hono, html, getSignedCookie, setSignedCookie, compress, bodyLimit } = hono;
  const app = new Hono();

  // Hono sets no Server header of its own; each runtime's server adds a current Date to every response.
  app.use(async (c, next) => {
    await next();
    c.res.headers.set('Server', 'Hono');
  });
  // hono/compress with its defaults (gzip or deflate by Accept-Encoding, no br; 1024-byte threshold;
  // compressible types only; Vary: Accept-Encoding), app-wide as Hono's docs apply it; the check's other
  // requests send no Accept-Encoding. Inside the Server middleware, so the header lands on its answer.
  if (compress) app.use(compress());

  app.get('/plaintext', (c) => c.text('Hello, World!'));
  // async: node:timers/promises, which Node, Bun and Deno all provide: a timer on the event loop.
  app.get('/async', async (c) => {
    await sleep(15);
    return c.text('Hello, World!');
  });
  app.get('/json', (c) => c.json({ message: 'Hello, World!' }));
  if (compress) app.get('/json-comp', (c) => c.json(jsonComp.items(jsonComp.count(c.req.query('n')))));

  // hono/body-limit (https://hono.dev/docs/middleware/builtin/body-limit): 413 past 2 MiB, from
  // Content-Length before reading, or counted while reading a chunked body. Then Hono's own
  // c.req.arrayBuffer() reads the whole body.
  if (bodyLimit) {
    app.post('/upload', bodyLimit({ maxSize: upload.BODY_LIMIT }), async (c) =>
      c.text(upload.answer(new Uint8Array(await c.req.arrayBuffer()))));
  }

  app.get('/db', async (c) => c.json(await db.randomWorld()));
  app.get('/queries', async (c) => c.json(await db.randomWorlds(tfb.count(c.req.query('queries')))));

  app.get('/updates', async (c) => {
    const worlds = await db.randomWorlds(tfb.count(c.req.query('queries')));
    for (const w of worlds) w.randomNumber = tfb.randomId();
    await db.saveWorlds(tfb.updateBatch(worlds));
    return c.json(worlds);
  });

  // hono/html's tagged template escapes every interpolated value.
  app.get('/fortunes', async (c) => {
    const fortunes = tfb.withExtraFortune(await db.fortunes());
    return c.html(html`<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>${
      fortunes.map((f) => html`<tr><td>${f.id}</td><td>${f.message}</td></tr>`)}</table></body></html>`);
  });

  app.get('/cached-queries', async (c) => c.json(await db.cache.sample(tfb.count(c.req.query('count')))));

  app.get('/session', async (c) => {
    // A missing, unsigned or tampered cookie reads as false: that visitor is unknown.
    const uid = await getSignedCookie(c, secretKey, COOKIE);
    const { fresh, count } = await db.bump(uid || undefined);
    if (fresh !== undefined) await setSignedCookie(c, COOKIE, fresh, secretKey, { path: '/', httpOnly: true, sameSite: 'Lax' });
    return c.text(`Count is ${count}`);
  });

  app.get('/hash', async (c) => {
    const raw = c.req.query('n');
    const reason = hashing.reason(raw);
    if (reason !== null) return c.text(reason, 400);
    return c.text(hashing.iteratedSha256Hex(await readHashFile(), Number(raw)));
  });

  app.use('/static/*', adapter.serveStatic({ root: staticDir, rewriteRequestPath: (p) => p.slice('/static'.length) }));

  app.get('/ws', adapter.upgradeWebSocket(() => ({
    onMessage(event, ws) {
      ws.send(event.data);
    },
  })));

  return app;
}

module.exports = { honoApp };
