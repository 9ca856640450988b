'use strict';
// crud's framework-independent halves (docs/workloads.md, "crud"): reading the id and the page parameters,
// the item body's shape for the stacks whose idiom is a plain check, and the items table's statements on
// pg's Pool. Routing, body parsing and the answers stay in each framework's own code.

const INT32_MIN = -2147483648;
const INT32_MAX = 2147483647;
const INTEGER = /^-?[0-9]+$/;
// The id column is a 32-bit integer, so no page starts further in than this: a larger offset is clamped to
// it (still past the end, still one query) rather than overflowing PostgreSQL's bigint or JS's safe range.
const OFFSET_PAST_ANY_ROW = 2 ** 32;

// A path's id as an int4, or null for one that cannot name a row (the route answers 404 without asking
// PostgreSQL, which would refuse the cast).
function itemId(raw) {
  if (typeof raw !== 'string' || !INTEGER.test(raw)) return null;
  const id = Number(raw);
  return id >= INT32_MIN && id <= INT32_MAX ? id : null;
}

// ?page=&size= (page 1 and size 10 when absent) as { limit, offset }, or null when either is not an
// integer, page < 1 or size is outside 1..100 (400). A repeated parameter is not an integer.
function pageOf(rawPage, rawSize) {
  const page = rawPage === undefined ? 1 : whole(rawPage);
  const size = rawSize === undefined ? 10 : whole(rawSize);
  if (page === null || size === null || page < 1 || size < 1 || size > 100) return null;
  return pageWindow(page, size);
}

// A valid page and size (for the stacks whose validation has read them) as the page query's { limit, offset }.
function pageWindow(page, size) {
  return { limit: size, offset: Math.min((page - 1) * size, OFFSET_PAST_ANY_ROW) };
}

function whole(raw) {
  return typeof raw === 'string' && INTEGER.test(raw) ? Number(raw) : null;
}

function isInt32(value) {
  return Number.isInteger(value) && value >= INT32_MIN && value <= INT32_MAX;
}

// The contract's item body: an object with a string name and a 32-bit integer quantity, other members
// ignored. Returns { name, quantity }, or null for a body to refuse with 422.
function itemFields(body) {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const { name, quantity } = body;
  return typeof name === 'string' && isInt32(quantity) ? { name, quantity } : null;
}

// The items table through pg's Pool, each statement prepared by name on its connection (as the stacks'
// db queries are). Every call is one statement: a create takes its id from the identity column through
// RETURNING, an update or delete of a missing id touches no row and resolves to null / false.
function pgItems(pool) {
  const COLUMNS = 'id, name, quantity';
  async function one(name, text, values) {
    const { rows } = await pool.query({ name, text, values });
    return rows.length === 0 ? null : rows[0];
  }
  return {
    find: (id) => one('item', `SELECT ${COLUMNS} FROM items WHERE id = $1`, [id]),
    async page({ limit, offset }) {
      const { rows } = await pool.query({
        name: 'item_page', text: `SELECT ${COLUMNS} FROM items ORDER BY id LIMIT $1 OFFSET $2`, values: [limit, offset],
      });
      return rows;
    },
    create: ({ name, quantity }) => one('item_create',
      `INSERT INTO items (name, quantity) VALUES ($1, $2) RETURNING ${COLUMNS}`, [name, quantity]),
    update: (id, { name, quantity }) => one('item_update',
      `UPDATE items SET name = $2, quantity = $3 WHERE id = $1 RETURNING ${COLUMNS}`, [id, name, quantity]),
    async remove(id) {
      const { rowCount } = await pool.query({ name: 'item_delete', text: 'DELETE FROM items WHERE id = $1', values: [id] });
      return rowCount > 0;
    },
  };
}

module.exports = { INT32_MIN, INT32_MAX, itemId, pageOf, pageWindow, itemFields, pgItems };
