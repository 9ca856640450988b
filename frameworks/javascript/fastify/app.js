'use strict';
// webshootout workloads on Fastify 5 (see docs/workloads.md).
const crypto = require('node:crypto');
const fs = require('node:fs/promises');
const Fastify = require('fastify');
const { Pool } = require('pg');

const { HOST, PORT, HASH_FILE, STATIC_DIR, DATABASE_URL, SECRET_KEY } = process.env;
const COOKIE = 'uid';
const INTEGER = /^-?[0-9]+$/;

// One event loop issues queries concurrently: a few connections keep it fed.
const pool = new Pool({ connectionString: DATABASE_URL, max: 16 });

// Response schemas let Fastify serialize with its compiled (fast-json-stringify) serializer.
const messageSchema = {
  response: { 200: { type: 'object', properties: { message: { type: 'string' } } } },
};
const worldSchema = {
  response: { 200: { type: 'object', properties: { id: { type: 'integer' }, randomNumber: { type: 'integer' } } } },
};

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

function hashReason(raw) {
  if (raw === undefined) return 'missing query parameter n';
  if (typeof raw !== 'string' || !INTEGER.test(raw)) return 'n must be an integer';
  if (Number(raw) < 1 || Number(raw) > 100000) return 'n must be between 1 and 100000';
  return null;
}

const app = Fastify({ logger: false });
app.register(require('@fastify/static'), { root: STATIC_DIR, prefix: '/static/' });
app.register(require('@fastify/cookie'), { secret: SECRET_KEY });
app.register(require('@fastify/websocket'));

app.get('/plaintext', async (request, reply) => {
  reply.type('text/plain; charset=utf-8');
  return 'Hello, World!';
});

app.get('/json', { schema: messageSchema }, async () => ({ message: 'Hello, World!' }));

app.get('/db', { schema: worldSchema }, async () => {
  const { rows } = await pool.query({
    name: 'world', text: 'SELECT id, randomnumber FROM world WHERE id = $1', values: [crypto.randomInt(1, 10001)],
  });
  return { id: rows[0].id, randomNumber: rows[0].randomnumber };
});

app.get('/session', async (request, reply) => {
  const cookie = request.cookies[COOKIE];
  const signed = cookie === undefined ? null : request.unsignCookie(cookie);
  const { fresh, count } = await bump(signed && signed.valid ? signed.value : undefined);
  if (fresh !== undefined) {
    reply.setCookie(COOKIE, fresh, { signed: true, httpOnly: true, sameSite: 'lax', path: '/' });
  }
  reply.type('text/plain; charset=utf-8');
  return `Count is ${count}`;
});

app.get('/hash', async (request, reply) => {
  reply.type('text/plain; charset=utf-8');
  const raw = request.query.n;
  const reason = hashReason(raw);
  if (reason !== null) return reply.code(400).send(reason);
  const n = Number(raw);
  let digest = crypto.createHash('sha256').update(await fs.readFile(HASH_FILE)).digest();
  for (let i = 1; i < n; i++) digest = crypto.createHash('sha256').update(digest).digest();
  return digest.toString('hex');
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
