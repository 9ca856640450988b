'use strict';
// One node process per CPU: the primary only forks; each worker runs app.js on the shared port (visitors live in the signed cookie and PostgreSQL, so any worker knows them).
const cluster = require('node:cluster');

if (cluster.isPrimary) {
  const workers = Number(process.env.WORKERS) || 1;
  for (let i = 0; i < workers; i++) cluster.fork();
  cluster.on('exit', (worker, code, signal) => {
    console.error(`worker ${worker.process.pid} exited (${signal || code})`);
    process.exitCode = 1;
  });
} else {
  require('./app.js');
}
