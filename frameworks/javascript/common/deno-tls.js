// `deno run --allow-net --allow-env --allow-read ../common/deno-tls.js app.js`: the TLS form of a module
// written for `deno serve` (deno, hono-deno). deno serve 2.9.6 takes no certificate, so given TLS_CERT and
// TLS_KEY the module's default export ({ fetch }) is served by Deno.serve with cert and key, the HTTPS form
// Deno's docs show; over TLS Deno.serve offers h2 and http/1.1 by ALPN.
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const require = createRequire(import.meta.url);
const { tlsFiles } = require('./tls.js');

const tls = tlsFiles();
if (tls === null) throw new Error('deno-tls.js serves TLS only: TLS_CERT and TLS_KEY are unset');
if (Deno.args.length !== 1) throw new Error('usage: deno run ... deno-tls.js APP.js');

const { HOST, PORT } = Deno.env.toObject();
const app = (await import(pathToFileURL(path.resolve(Deno.args[0])).href)).default;

Deno.serve(
  { hostname: HOST, port: Number(PORT), cert: String(tls.cert), key: String(tls.key) },
  (req, info) => app.fetch(req, info),
);
