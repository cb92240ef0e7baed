// Entry of an embedding worker thread (server/embedders/pool.ts). Worker threads do not
// inherit the main thread's TypeScript loader, so register tsx here, then run the worker.
import { register } from 'tsx/esm/api';

register();
await import('./embed-worker.ts');
