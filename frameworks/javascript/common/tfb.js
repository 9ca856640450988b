'use strict';
// The framework-independent halves of TechEmpower's queries, updates, fortunes and cached
// (docs/workloads.md): the count clamp, random ids, the fortune list's extra row and sort, and the
// in-process world cache. Plain CommonJS so node, Bun and Deno (through createRequire) share it.
const crypto = require('node:crypto');

const INTEGER = /^-?[0-9]+$/;

// ?queries= / ?count=: missing, empty, not an integer or below 1 means 1; above 500 means 500.
function count(raw) {
  if (typeof raw !== 'string' || !INTEGER.test(raw)) return 1;
  const n = Number(raw);
  return n < 1 ? 1 : n > 500 ? 500 : n;
}

// A world id (or a new randomNumber), uniform over 1..10000.
function randomId() {
  return crypto.randomInt(1, 10001);
}

// The request-time fortune, then a plain string sort by message, as TechEmpower's rules say.
function withExtraFortune(rows) {
  const list = rows.map((row) => ({ id: row.id, message: row.message }));
  list.push({ id: 0, message: 'Additional fortune added at request time.' });
  list.sort((a, b) => (a.message < b.message ? -1 : a.message > b.message ? 1 : 0));
  return list;
}

// The rows of an updates request that one batched UPDATE writes: one per id (the last drawn number of
// an id drawn twice wins, as it would with one UPDATE per row), ordered by id so that two concurrent
// requests lock their rows in the same order and cannot deadlock.
function updateBatch(worlds) {
  const byId = new Map();
  for (const w of worlds) byId.set(w.id, w.randomNumber);
  return [...byId].sort((a, b) => a[0] - b[0]);
}

// `UPDATE world ... FROM (VALUES ...)` for n (id, randomnumber) pairs, with $1..$2n placeholders, for
// drivers that take positional parameters (pg).
const updateSqlCache = new Map();
function updateSql(n) {
  let text = updateSqlCache.get(n);
  if (text === undefined) {
    const values = [];
    for (let i = 0; i < n; i++) values.push(`($${2 * i + 1}::int, $${2 * i + 2}::int)`);
    text = `UPDATE world SET randomnumber = v.r FROM (VALUES ${values.join(', ')}) AS v(id, r) WHERE world.id = v.id`;
    updateSqlCache.set(n, text);
  }
  return text;
}

// The cached workload's store: every world row, loaded once on first use by loadAll() (which resolves
// to rows of { id, randomNumber }), then read from memory. A failed load is retried by the next request.
function worldCache(loadAll) {
  const byId = new Map();
  let loading = null;
  function fill() {
    if (loading === null) {
      loading = loadAll().then((rows) => {
        for (const row of rows) byId.set(row.id, row);
      }, (err) => {
        loading = null;
        throw err;
      });
    }
    return loading;
  }
  // Resolves to n random rows (ids may repeat).
  async function sample(n) {
    if (byId.size === 0) await fill();
    const out = new Array(n);
    for (let i = 0; i < n; i++) out[i] = byId.get(randomId());
    return out;
  }
  return { sample };
}

// The world readers of the stacks on pg's Pool (a prepared statement by name, per connection).
function pgWorlds(pool) {
  const text = 'SELECT id, randomnumber FROM world WHERE id = $1';
  async function randomWorld() {
    const { rows } = await pool.query({ name: 'world', text, values: [randomId()] });
    return { id: rows[0].id, randomNumber: rows[0].randomnumber };
  }
  return { randomWorld, randomWorlds: (n) => together(n, randomWorld) };
}

// One query per row, issued together: the pool runs them on its connections as they come free.
function together(n, query) {
  const queries = new Array(n);
  for (let i = 0; i < n; i++) queries[i] = query();
  return Promise.all(queries);
}

// The same for the tagged-template clients, Bun.sql and postgres.js, whose pools also pipeline.
function sqlWorlds(sql) {
  async function randomWorld() {
    const [row] = await sql`SELECT id, randomnumber FROM world WHERE id = ${randomId()}`;
    return { id: row.id, randomNumber: row.randomnumber };
  }
  return { randomWorld, randomWorlds: (n) => together(n, randomWorld) };
}

// The cached workload's store on the tagged-template clients.
function sqlWorldCache(sql) {
  return worldCache(async () => {
    const rows = await sql`SELECT id, randomnumber FROM world`;
    return rows.map((row) => ({ id: row.id, randomNumber: row.randomnumber }));
  });
}

module.exports = { count, randomId, withExtraFortune, updateBatch, updateSql, worldCache, pgWorlds, sqlWorlds, sqlWorldCache };
