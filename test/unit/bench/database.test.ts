// Subject: bench/database.ts boltPortOf, which openDatabase uses to stop only the eval database on its own port.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { boltPortOf } from '../../../bench/database.js';

// openDatabase stops only the eval database that holds its own port: an eval on another
// EVAL_NEO4J_BOLT_PORT (an eval:kg run beside an eval) keeps running.
describe('boltPortOf', () => {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'eval-db-'));
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));
  const folder = (name: string, conf?: string) => {
    const dir = path.join(root, name);
    fs.mkdirSync(path.join(dir, 'conf'), { recursive: true });
    if (conf !== undefined) fs.writeFileSync(path.join(dir, 'conf', 'neo4j.conf'), conf);
    return dir;
  };

  test("reads the port from the launcher's conf", () => {
    const dir = folder('a', 'server.directories.data=/x\nserver.bolt.listen_address=127.0.0.1:27698\nserver.http.listen_address=127.0.0.1:27485\n');
    expect(boltPortOf(dir)).toBe('27698');
  });

  test('a folder never started has no port', () => {
    expect(boltPortOf(folder('b'))).toBeNull();
    expect(boltPortOf(path.join(root, 'missing'))).toBeNull();
  });

  test('the HTTP port is not taken for the Bolt one', () => {
    expect(boltPortOf(folder('c', 'server.http.listen_address=127.0.0.1:27475\n'))).toBeNull();
  });
});
