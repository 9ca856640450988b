'use strict';
// json-comp's framework-independent half (docs/workloads.md): the ?n= clamp and the array of objects,
// built anew on every request for the framework's own JSON path to serialize and its middleware to compress.

const INTEGER = /^-?[0-9]+$/;
const MAX_ITEMS = 1000;

// ?n=: missing, empty, not an integer or below 1 means 1; above 1000 means 1000 (the check asks 1..1000).
function count(raw) {
  if (typeof raw !== 'string' || !INTEGER.test(raw)) return 1;
  const n = Number(raw);
  return n < 1 ? 1 : n > MAX_ITEMS ? MAX_ITEMS : n;
}

// [{ id: 1, message: 'Hello, World!' }, ..., { id: n, ... }].
function items(n) {
  const list = new Array(n);
  for (let i = 0; i < n; i++) list[i] = { id: i + 1, message: 'Hello, World!' };
  return list;
}

module.exports = { count, items };
