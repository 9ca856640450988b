'use strict';
// webshootout workloads on Fastify 5 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const { setTimeout: sleep } = require('node:timers/promises');
const Ajv = require('ajv');
const Fastify = require('fastify');
const { Pool } = require('pg');
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

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

// Response schemas let Fastify serialize with its compiled (fast-json-stringify) serializer.
const messageSchema = {
  response: { 200: { type: 'object', properties: { message: { type: 'string' } } } },
};
const worldSchema = {
  response: { 200: { type: 'object', properties: { id: { type: 'integer' }, randomNumber: { type: 'integer' } } } },
};

const worldsSchema = {
  response: { 200: { type: 'array', items: worldSchema.response[200] } },
};

const itemsSchema = {
  response: {
    200: { type: 'array', items: { type: 'object', properties: { id: { type: 'integer' }, message: { type: 'string' } } } },
  },
};

// With TLS_CERT/TLS_KEY, Fastify's own http2 + https options: HTTP/2 over TLS by ALPN, and allowHTTP1 so
// HTTP/1.1 clients (and the WebSocket upgrade) are still served on the same port. Unset: cleartext HTTP/1.1.
const tls = tlsFiles();
const app = Fastify(tls === null
  ? { logger: false }
  : { logger: false, http2: true, https: { allowHTTP1: true, ...tls } });
// Fastify sets no Server header of its own (node's http module sets a current Date): a hook adds it to
// every reply, the static files' and the 404s' included.
app.addHook('onRequest', (request, reply, done) => {
  reply.header('server', 'Fastify');
  done();
});
// @fastify/compress with its defaults (global: every compressible reply; br, gzip, deflate by Accept-Encoding;
// 1024-byte threshold; Vary: Accept-Encoding), registered before the routes as its README says; the
// check's other requests send no Accept-Encoding.
app.register(require('@fastify/compress'));
app.register(require('@fastify/static'), { root: STATIC_DIR, prefix: '/static/' });
app.register(require('@fastify/cookie'), { secret: SECRET_KEY });
app.register(require('@fastify/websocket'));
// @fastify/view with EJS, which escapes <%= %>; production (NODE_ENV) caches the compiled template.
app.register(require('@fastify/view'), {
  engine: { ejs: require('ejs') },
  root: require('node:path').join(__dirname, '..', 'common', 'views'),
  production: process.env.NODE_ENV === 'production',
});

// The routes as a plugin registered after @fastify/compress: its onRoute hook, which gives each route its
// compression, sees only routes declared once it has loaded (its README awaits the register before them).
app.register(async (app) => {
  app.get('/plaintext', async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    return 'Hello, World!';
  });

  // async: a 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
  app.get('/async', async (request, reply) => {
    await sleep(15);
    reply.type('text/plain; charset=utf-8');
    return 'Hello, World!';
  });

  app.get('/json', { schema: messageSchema }, async () => ({ message: 'Hello, World!' }));

  app.get('/json-comp', { schema: itemsSchema }, async (request) => jsonComp.items(jsonComp.count(request.query.n)));

  // Fastify parses only JSON and text by itself: application/octet-stream gets its own content-type parser,
  // which reads the whole body (Content-Length or chunked) as a Buffer. The route's bodyLimit
  // (https://fastify.dev/docs/latest/Reference/Routes/#routes-options) answers 413 past 2 MiB instead of
  // Fastify's default 1 MiB.
  app.addContentTypeParser('application/octet-stream', { parseAs: 'buffer' }, (request, body, done) => done(null, body));

  app.post('/upload', { bodyLimit: upload.BODY_LIMIT }, async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    return upload.answer(Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0));
  });

  app.get('/db', { schema: worldSchema }, async () => {
    const { rows } = await pool.query({
      name: 'world', text: 'SELECT id, randomnumber FROM world WHERE id = $1', values: [crypto.randomInt(1, 10001)],
    });
    return { id: rows[0].id, randomNumber: rows[0].randomnumber };
  });

  const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

  app.get('/queries', { schema: worldsSchema }, async (request) => randomWorlds(tfb.count(request.query.queries)));

  app.get('/updates', { schema: worldsSchema }, async (request) => {
    const worlds = await randomWorlds(tfb.count(request.query.queries));
    for (const w of worlds) w.randomNumber = tfb.randomId();
    const batch = tfb.updateBatch(worlds);
    await pool.query(tfb.updateSql(batch.length), batch.flat());
    return worlds;
  });

  app.get('/fortunes', async (request, reply) => {
    const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
    return reply.view('fortunes.ejs', { fortunes: tfb.withExtraFortune(rows) });
  });

  const cache = tfb.worldCache(async () => {
    const { rows } = await pool.query('SELECT id, randomnumber FROM world');
    return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
  });

  app.get('/cached-queries', { schema: worldsSchema }, async (request) => cache.sample(tfb.count(request.query.count)));

  app.get('/session', async (request, reply) => {
    const cookie = request.cookies[COOKIE];
    const signed = cookie === undefined ? null : request.unsignCookie(cookie);
    const { fresh, count } = await bump(pool, signed && signed.valid ? signed.value : undefined);
    if (fresh !== undefined) {
      reply.setCookie(COOKIE, fresh, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
    }
    reply.type('text/plain; charset=utf-8');
    return `Count is ${count}`;
  });

  app.get('/hash', async (request, reply) => {
    reply.type('text/plain; charset=utf-8');
    const raw = request.query.n;
    const reason = hashing.reason(raw);
    if (reason !== null) return reply.code(400).send(reason);
    return hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), Number(raw));
  });
});

// crud: Fastify's router, one route per method, its JSON body parser (400 for a body that is not JSON), JSON
// Schema validation of the path, the query and the body, and pg's queries.
const ITEMS = '/items';
const int32 = { type: 'integer', minimum: items.INT32_MIN, maximum: items.INT32_MAX };
const item = { type: 'object', properties: { id: { type: 'integer' }, name: { type: 'string' }, quantity: { type: 'integer' } } };
const byId = { type: 'object', properties: { id: int32 }, required: ['id'] };
const itemBody = { type: 'object', properties: { name: { type: 'string' }, quantity: int32 }, required: ['name', 'quantity'] };
// A failed schema answers 400 in Fastify; the contract wants 422 for a body of the wrong shape and 404 for an
// id that names no row.
const VALIDATION_STATUS = { body: 422, params: 404, querystring: 400 };

app.register(async (app) => {
  // Fastify's Ajv coerces types (coerceTypes: 'array'), which the query and path need (their values are
  // strings) but which would turn a body's "3" into 3 and its 5 into "5": the body gets an Ajv that does not
  // coerce, the way Fastify's validation docs show, for this plugin's routes only.
  const strict = new Ajv({ coerceTypes: false, removeAdditional: false, allErrors: false });
  const coercing = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: false, allErrors: false });
  app.setValidatorCompiler(({ schema, httpPart }) => (httpPart === 'body' ? strict : coercing).compile(schema));
  // Fastify's default handler then answers with the error's statusCode, in its own error body.
  app.setErrorHandler((error, request, reply) => {
    if (error.validation && error.validationContext in VALIDATION_STATUS) error.statusCode = VALIDATION_STATUS[error.validationContext];
    return reply.send(error);
  });

  const store = items.pgItems(pool);
  const notFound = (reply, id) => reply.code(404).send({ statusCode: 404, error: 'Not Found', message: `no item ${id}` });

  app.get(ITEMS, {
    schema: {
      querystring: {
        type: 'object',
        properties: { page: { type: 'integer', minimum: 1, default: 1 }, size: { type: 'integer', minimum: 1, maximum: 100, default: 10 } },
      },
      response: { 200: { type: 'array', items: item } },
    },
  }, async (request) => store.page(items.pageWindow(request.query.page, request.query.size)));

  app.get(`${ITEMS}/:id`, { schema: { params: byId, response: { 200: item } } }, async (request, reply) => {
    const found = await store.find(request.params.id);
    return found === null ? notFound(reply, request.params.id) : found;
  });

  app.post(ITEMS, { schema: { body: itemBody, response: { 201: item } } }, async (request, reply) => {
    const created = await store.create(request.body);
    reply.code(201).header('location', `${ITEMS}/${created.id}`);
    return created;
  });

  app.put(`${ITEMS}/:id`, { schema: { params: byId, body: itemBody, response: { 200: item } } }, async (request, reply) => {
    const updated = await store.update(request.params.id, request.body);
    return updated === null ? notFound(reply, request.params.id) : updated;
  });

  app.delete(`${ITEMS}/:id`, { schema: { params: byId } }, async (request, reply) => {
    if (!(await store.remove(request.params.id))) return notFound(reply, request.params.id);
    return reply.code(204).send();
  });
});

app.register(async (scope) => {
  scope.get('/ws', { websocket: true }, (socket) => {
    socket.on('message', (data, isBinary) => socket.send(data, { binary: isBinary }));
  });
});

app.listen({ host: HOST, port: Number(PORT) }).catch((err) => {
  console.error(err);
  process.exit(1);
});
