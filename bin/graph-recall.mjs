#!/usr/bin/env node
// The graph-recall CLI: runs server/main.ts through tsx (no build step).
import { register } from 'tsx/esm/api';

register();
await import('../server/main.ts');
