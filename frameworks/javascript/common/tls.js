'use strict';
// The harness's TLS settings (docs/adding-a-framework.md): TLS_CERT (leaf then CA) and TLS_KEY (PKCS#8),
// PEM paths. Both set: the server serves TLS only; both unset: cleartext as before. One without the other
// stops the server rather than quietly serving cleartext.
const fs = require('node:fs');

// { cert, key } for node's tls.createSecureContext (https / http2 server options), or null when unset.
function tlsFiles() {
  const { TLS_CERT, TLS_KEY } = process.env;
  if (!TLS_CERT && !TLS_KEY) return null;
  if (!TLS_CERT || !TLS_KEY) {
    throw new Error(`TLS_CERT=${JSON.stringify(TLS_CERT)} and TLS_KEY=${JSON.stringify(TLS_KEY)}: set both or neither`);
  }
  return { cert: fs.readFileSync(TLS_CERT), key: fs.readFileSync(TLS_KEY) };
}

module.exports = { tlsFiles };
