#!/usr/bin/env node
// The graph-recall CLI: runs server/cli/index.ts through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../server/cli/index.ts');
const code = await main(process.argv.slice(2));
// A failed command may leave handles open (a driver mid-connect): exit now. Success ends
// by itself, and `serve` keeps running.
if (code !== 0) process.exit(code);
