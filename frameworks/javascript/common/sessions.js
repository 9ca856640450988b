'use strict';
// The session counter of docs/workloads.md in PostgreSQL, shared by every node stack: one transaction,
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

module.exports = { bump };
