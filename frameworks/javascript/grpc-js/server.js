'use strict';
// webshootout's gRPC workloads (docs/workloads.md, "grpc-unary and grpc-stream") on @grpc/grpc-js: the
// service of proto/bench.proto, loaded from the file at start by @grpc/proto-loader (grpc-js's documented
// dynamic code generation), served by grpc-js's own server on node:http2.
// `node ../common/cluster.js server.js` runs it in WORKERS processes sharing PORT.
const path = require('node:path');
const grpc = require('@grpc/grpc-js');
const protoLoader = require('@grpc/proto-loader');
const { tlsFiles } = require('../common/tls.js');

const { HOST, PORT } = process.env;
if (!HOST || !/^[1-9][0-9]*$/.test(PORT || '')) {
  throw new Error(`HOST=${JSON.stringify(HOST)} PORT=${JSON.stringify(PORT)}: both are required`);
}

// keepCase: the proto's field names as they are. defaults: an absent field (proto3 leaves zeros off the wire)
// reads as 0, not undefined. longs: Number: the int64 answers stay below 2^33, exact as JS numbers; the
// encoding is the proto's int64 varint either way.
const definition = protoLoader.loadSync(path.join(__dirname, '..', '..', '..', 'proto', 'bench.proto'), {
  keepCase: true,
  longs: Number,
  defaults: true,
});
const { Bench } = grpc.loadPackageDefinition(definition).webshootout;

const MAX_COUNT = 1000;

// protobufjs writes every field the reply object sets, a zero too (`08 00`); proto3's encoding, what every
// other protobuf library writes, leaves a zero scalar off the wire. An unset field is proto3's zero.
function int64(value) {
  return value === 0 ? undefined : value;
}

function sum(call, callback) {
  const { a, b } = call.request;
  if (a < 0 || b < 0) {
    callback({ code: grpc.status.INVALID_ARGUMENT, details: 'a and b must not be negative' });
    return;
  }
  callback(null, { sum: int64(a + b) });
}

function count(call) {
  const { start, n } = call.request;
  if (n < 1 || n > MAX_COUNT || start < 0) {
    // grpc-js's way to end a server stream with a status (its examples/error_handling).
    call.emit('error', { code: grpc.status.INVALID_ARGUMENT, details: `n must be 1..${MAX_COUNT} and start not negative` });
    return;
  }
  for (let i = 0; i < n; i++) call.write({ value: int64(start + i) });
  call.end();
}

// No options: grpc-js's defaults are its production settings (no compression unless configured, channelz
// only counts calls and is not served, no reflection, logging at ERROR unless GRPC_VERBOSITY says otherwise).
const server = new grpc.Server();
server.addService(Bench.service, { Sum: sum, Count: count });

const tls = tlsFiles();
const credentials = tls
  ? grpc.ServerCredentials.createSsl(null, [{ cert_chain: tls.cert, private_key: tls.key }], false)
  : grpc.ServerCredentials.createInsecure();
const address = HOST.includes(':') ? `[${HOST}]:${PORT}` : `${HOST}:${PORT}`;

server.bindAsync(address, credentials, (error) => {
  if (error) {
    console.error(`cannot serve on ${address}: ${error.message}`);
    process.exit(1);
  }
});
