#!/usr/bin/env node
// The graph-recall CLI: runs server/cli/index.ts through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
// A reader that stops early (`graph-recall --help | head`) closes the pipe under us: nothing is
// wrong, and nothing more can be said; exit as `head`'s writers do, quietly.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e) => {
    if (e.code === 'EPIPE') process.exit(0);
    throw e;
  });
}
const { main } = await import('../server/cli/index.ts');
const code = await main(process.argv.slice(2));
// A failed command may leave handles open (a driver mid-connect): exit now. Success ends
// by itself, and `serve` keeps running.
if (code !== 0) process.exit(code);
