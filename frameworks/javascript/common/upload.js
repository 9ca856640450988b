'use strict';
// upload's framework-independent half (docs/workloads.md): the answer for the body the framework read.
const crypto = require('node:crypto');

// The body limit every stack sets in its framework's own way: bodies up to 1 MiB are accepted, one over
// 16 MiB refused; 2 MiB lies between.
const BODY_LIMIT = 2 * 1024 * 1024;

// `<bytes read> <lowercase hex SHA-256>` of a whole body (a Buffer or Uint8Array).
function answer(body) {
  return `${body.length} ${crypto.createHash('sha256').update(body).digest('hex')}`;
}

module.exports = { BODY_LIMIT, answer };
