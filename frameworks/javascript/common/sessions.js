'use strict';
// The session counter of docs/workloads.md in PostgreSQL, shared by the JavaScript stacks: one transaction,
// the visitor's row locked by SELECT ... FOR UPDATE until the UPDATE (or the INSERT of a new visitor).
const crypto = require('node:crypto');

// Returns { fresh, count }: fresh is the uid of a new visitor (to set as its cookie), else undefined.
async function bump(pool, uid) {
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

// The same transaction for the tagged-template clients that share one API, postgres.js and Bun.sql:
// sql.begin() holds one pooled connection, commits when the callback resolves and rolls back when it throws.
async function bumpSql(sql, uid) {
  return sql.begin(async (tx) => {
    const rows = uid === undefined ? [] : await tx`SELECT data FROM usersessions WHERE uid = ${uid} FOR UPDATE`;
    if (rows.length === 0) {
      const fresh = crypto.randomBytes(16).toString('base64url');
      await tx`INSERT INTO usersessions (uid, data) VALUES (${fresh}, ${JSON.stringify({ count: 1 })})`;
      return { fresh, count: 1 };
    }
    const count = JSON.parse(rows[0].data).count + 1;
    await tx`UPDATE usersessions SET data = ${JSON.stringify({ count })} WHERE uid = ${uid}`;
    return { fresh: undefined, count };
  });
}

// A cookie's value from a Cookie header, for the servers that parse none (Bun.serve, Deno.serve).
function cookieValue(header, name) {
  for (const part of (header || '').split(';')) {
    const eq = part.indexOf('=');
    // The uid is base64url, so the value needs no decoding.
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

module.exports = { bump, bumpSql, cookieValue };
