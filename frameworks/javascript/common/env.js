'use strict';
// The harness's numeric settings (docs/adding-a-framework.md); a missing or bad one stops the server
// with its name and value rather than falling back to a guess.

function positiveInteger(name) {
  const raw = process.env[name];
  if (raw === undefined || !/^[1-9][0-9]*$/.test(raw)) {
    throw new Error(`environment variable ${name}=${JSON.stringify(raw)} is not a positive integer`);
  }
  return Number(raw);
}

module.exports = { positiveInteger };
