'use strict';
// The hash workload's framework-independent half: the check of n and the iterated SHA-256.
const crypto = require('node:crypto');

const INTEGER = /^-?[0-9]+$/;
const MAX_N = 100000;

// Why the raw query value n is refused, in one line; null when it is acceptable.
function reason(raw) {
  if (raw === undefined || raw === null) return 'missing query parameter n';
  if (typeof raw !== 'string' || !INTEGER.test(raw)) return 'n must be an integer';
  if (Number(raw) < 1 || Number(raw) > MAX_N) return `n must be between 1 and ${MAX_N}`;
  return null;
}

// Lowercase hex of d_n: d_1 = SHA-256(data), d_(k+1) = SHA-256(d_k).
function iteratedSha256Hex(data, n) {
  let digest = crypto.createHash('sha256').update(data).digest();
  for (let i = 1; i < n; i++) digest = crypto.createHash('sha256').update(digest).digest();
  return digest.toString('hex');
}

module.exports = { reason, iteratedSha256Hex };
