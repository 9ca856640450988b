'use strict';
// `node ../common/cluster.js app.js`: the primary forks WORKERS processes and only watches them; each
// worker loads the app named on the command line (relative to the framework's folder) on the shared
// port. Visitors live in the cookie and PostgreSQL, so any worker knows them.
const cluster = require('node:cluster');
const path = require('node:path');
const { positiveInteger } = require('./env.js');

if (process.argv.length < 3) {
  console.error('usage: node cluster.js APP.js [app arguments]');
  process.exit(2);
}

if (cluster.isPrimary) {
  const workers = positiveInteger('WORKERS');
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal || code})`);
    process.exitCode = 1;
  });
} else {
  require(path.resolve(process.argv[2]));
}
