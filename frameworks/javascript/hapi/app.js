'use strict';
// webshootout workloads on hapi 21 (see docs/workloads.md).
// `node app.js` serves in one process, `node ../common/cluster.js app.js` in WORKERS processes.
const fs = require('node:fs/promises');
const http2 = require('node:http2');
const path = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');
const Boom = require('@hapi/boom');
const Hapi = require('@hapi/hapi');
const Inert = require('@hapi/inert');
const Vision = require('@hapi/vision');
const Joi = require('joi');
const { Pool } = require('pg');
const { WebSocketServer } = require('ws');
const { positiveInteger } = require('../common/env.js');
const hashing = require('../common/hash.js');
const items = require('../common/items.js');
const { bump } = require('../common/sessions.js');
const tfb = require('../common/tfb.js');
const { tlsFiles } = require('../common/tls.js');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';

// Each process opens at most DB_POOL connections (the fairness rule, docs/fairness.md).
const poolSize = positiveInteger('DB_POOL');
const pool = new Pool({ connectionString: DATABASE_URL, min: poolSize, max: poolSize });

const { randomWorld, randomWorlds } = tfb.pgWorlds(pool);

const cache = tfb.worldCache(async () => {
  const { rows } = await pool.query('SELECT id, randomnumber FROM world');
  return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
});

// The hash's n, in hapi's validation idiom (a Joi schema on the route's query); the bounds are the
// contract's, the same ones ../common/hash.js states for the stacks without a validator.
const hashQuery = Joi.object({ n: Joi.number().integer().min(1).max(100000).required() });

// A failed validation answers 400 with Joi's one-line reason as text, instead of hapi's JSON error body.
function badQuery(request, h, err) {
  return h.response(err.message).code(400).type('text/plain').takeover();
}

// crud, validated the hapi way: Joi schemas on the route's params, query and payload. The payload schema does
// not convert (Joi would otherwise take "3" for a quantity of 3, or 5 for a name), the query's must (its
// values are strings). A refused id or payload answers with the contract's status through a Boom error.
const ITEMS = '/items';
const int32 = Joi.number().integer().min(items.INT32_MIN).max(items.INT32_MAX);
const itemParams = Joi.object({ id: int32.required() });
const pageQuery = Joi.object({
  // unsafe: a page past 2^53 is still an integer, past the end (../common/items.js clamps its offset).
  page: Joi.number().integer().unsafe().min(1).default(1),
  size: Joi.number().integer().min(1).max(100).default(10),
}).unknown(true);
const itemPayload = Joi.object({ name: Joi.string().allow('').required(), quantity: int32.required() })
  .unknown(true).required().prefs({ convert: false });

function noSuchItem(request) {
  return Boom.notFound(`no item ${request.params.id}`);
}
function found(request, item) {
  if (item === null) throw noSuchItem(request);
  return item;
}
function refusedItem(request, h, err) {
  throw Boom.badData(err.message);
}
// A path that is not an int4 names no row.
function refusedId(request) {
  throw noSuchItem(request);
}

async function main() {
  // With TLS_CERT/TLS_KEY, hapi's `listener` option (a server of node's compatible interface, with
  // `tls: true` to say it is secure) is node:http2's secure server: h2 by ALPN, and allowHTTP1 serves
  // http/1.1 clients too (the WebSocket upgrade arrives on that side). Unset: hapi's own node:http server.
  // hapi logs nothing per request without a logging plugin.
  const tls = tlsFiles();
  const server = Hapi.server(tls === null
    ? { host: HOST, port: Number(PORT) }
    : { host: HOST, port: Number(PORT), tls: true, listener: http2.createSecureServer({ allowHTTP1: true, ...tls }) });

  await server.register([Inert, Vision]);

  // @hapi/vision with EJS, which escapes <%= %>; vision caches compiled templates by default (isCached).
  server.views({
    engines: { ejs: require('ejs') },
    path: path.join(__dirname, '..', 'common', 'views'),
    isCached: true,
  });

  // hapi's cookie state: signed (HMAC with SECRET_KEY), so a tampered or unsigned value is dropped from
  // request.state (ignoreErrors) and reads as an unknown visitor. Not Secure: the check speaks cleartext.
  server.state(COOKIE, {
    encoding: 'base64',
    sign: { password: SECRET_KEY },
    isSecure: false,
    isHttpOnly: true,
    isSameSite: 'Lax',
    path: '/',
    ignoreErrors: true,
  });

  // hapi sets no Server header of its own (node's http module sets a current Date): added to every reply,
  // errors (Boom) and static files included.
  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    if (response.isBoom) response.output.headers.server = 'hapi';
    else response.header('server', 'hapi');
    return h.continue;
  });

  const store = items.pgItems(pool);

  server.route([
    {
      method: 'GET',
      path: '/plaintext',
      handler: (request, h) => h.response('Hello, World!').type('text/plain'),
    },
    {
      method: 'GET',
      path: '/async',
      // A 15 ms wait on the event loop's timer (timers/promises), then the plaintext answer.
      handler: async (request, h) => {
        await sleep(15);
        return h.response('Hello, World!').type('text/plain');
      },
    },
    {
      method: 'GET',
      path: '/json',
      // hapi serializes a returned object with JSON.stringify per response, as application/json.
      handler: () => ({ message: 'Hello, World!' }),
    },
    {
      method: 'GET',
      path: '/db',
      handler: () => randomWorld(),
    },
    {
      method: 'GET',
      path: '/queries',
      handler: (request) => randomWorlds(tfb.count(request.query.queries)),
    },
    {
      method: 'GET',
      path: '/updates',
      handler: async (request) => {
        const worlds = await randomWorlds(tfb.count(request.query.queries));
        for (const w of worlds) w.randomNumber = tfb.randomId();
        const batch = tfb.updateBatch(worlds);
        await pool.query(tfb.updateSql(batch.length), batch.flat());
        return worlds;
      },
    },
    {
      method: 'GET',
      path: '/fortunes',
      handler: async (request, h) => {
        const { rows } = await pool.query({ name: 'fortune', text: 'SELECT id, message FROM fortune' });
        return h.view('fortunes', { fortunes: tfb.withExtraFortune(rows) });
      },
    },
    {
      method: 'GET',
      path: '/cached-queries',
      handler: (request) => cache.sample(tfb.count(request.query.count)),
    },
    {
      method: 'GET',
      path: '/session',
      handler: async (request, h) => {
        const { fresh, count } = await bump(pool, request.state[COOKIE]);
        const response = h.response(`Count is ${count}`).type('text/plain');
        if (fresh !== undefined) response.state(COOKIE, fresh);
        return response;
      },
    },
    {
      method: 'GET',
      path: '/hash',
      options: { validate: { query: hashQuery, failAction: badQuery } },
      handler: async (request, h) => {
        const hex = hashing.iteratedSha256Hex(await fs.readFile(HASH_FILE), request.query.n);
        return h.response(hex).type('text/plain');
      },
    },
    {
      method: 'GET',
      path: ITEMS,
      // A refused page is the default failAction's 400.
      options: { validate: { query: pageQuery } },
      handler: (request) => store.page(items.pageWindow(request.query.page, request.query.size)),
    },
    {
      method: 'GET',
      path: `${ITEMS}/{id}`,
      options: { validate: { params: itemParams, failAction: refusedId } },
      handler: async (request) => found(request, await store.find(request.params.id)),
    },
    {
      method: 'POST',
      path: ITEMS,
      // hapi parses the JSON payload itself and answers 400 to one that is not JSON.
      options: { validate: { payload: itemPayload, failAction: refusedItem } },
      handler: async (request, h) => {
        const item = await store.create(request.payload);
        return h.response(item).code(201).location(`${ITEMS}/${item.id}`);
      },
    },
    {
      method: 'PUT',
      path: `${ITEMS}/{id}`,
      options: {
        validate: {
          params: itemParams,
          payload: itemPayload,
          failAction: (request, h, err) => (err.output.payload.validation.source === 'params' ? refusedId : refusedItem)(request, h, err),
        },
      },
      handler: async (request) => found(request, await store.update(request.params.id, request.payload)),
    },
    {
      method: 'DELETE',
      path: `${ITEMS}/{id}`,
      options: { validate: { params: itemParams, failAction: refusedId } },
      handler: async (request, h) => {
        if (!(await store.remove(request.params.id))) throw noSuchItem(request);
        return h.response().code(204);
      },
    },
    {
      method: 'GET',
      path: '/static/{file*}',
      // @hapi/inert's directory handler: hapi's documented way to serve a folder.
      handler: { directory: { path: STATIC_DIR, redirectToSlash: false, index: false } },
    },
  ]);

  // hapi has no WebSocket support of its own (@hapi/nes speaks its own protocol over WebSocket, not a
  // plain echo): ws takes the upgrades of hapi's listener.
  const wss = new WebSocketServer({ server: server.listener, path: '/ws' });
  wss.on('connection', (ws) => {
    ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
  });

  await server.start();
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
