'use strict';
// `bun ../common/bun-cluster.js app.js`: Bun's production form on several CPUs, as its docs describe it:
// WORKERS copies of the app, each its own Bun process listening with reusePort (SO_REUSEPORT), so the
// kernel spreads connections over them. This process only starts them, forwards SIGTERM/SIGINT and
// exits when any of them does.
const path = require('node:path');
const { positiveInteger } = require('./env.js');

if (process.argv.length < 3) {
  console.error('usage: bun bun-cluster.js APP.js [app arguments]');
  process.exit(2);
}

const workers = positiveInteger('WORKERS');
const argv = [process.execPath, path.resolve(process.argv[2]), ...process.argv.slice(3)];
const env = { ...process.env, REUSE_PORT: '1' };
const children = [];
for (let i = 0; i < workers; i++) {
  children.push(Bun.spawn(argv, { env, stdio: ['ignore', 'inherit', 'inherit'] }));
}

for (const signal of ['SIGTERM', 'SIGINT']) {
  process.on(signal, () => {
    for (const child of children) child.kill(signal);
    process.exit(0);
  });
}

Promise.race(children.map((child) => child.exited)).then((code) => {
  console.error(`a worker exited (${code}); stopping the others`);
  for (const child of children) child.kill();
  process.exit(1);
});
