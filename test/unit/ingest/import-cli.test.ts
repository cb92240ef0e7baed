// Subject: server/cli/import.ts: graph-recall import, its arguments and refusals.
import { cli } from '../../support/cli.js';
import { importFolder } from '../../support/import-folder.js';

describe('graph-recall import (command line)', () => {
  it('lists the bad rows by file and line, writes nothing and exits with 1', async () => {
    const dir = importFolder({ passages: [{ id: 'p1', text: 'x', embedding: [1, 2] }], mentions: [{ passage: 'p1', entity: 'e1' }] });
    const r = await cli(['import', dir, '--offline', '--data-dir', '.data/never-created']);
    expect(r.code).toBe(1);
    // p1 itself is bad, so the mention of it is too.
    expect(r.stderr).toContain('3 bad rows; nothing was written');
    expect(r.stderr).toContain('mentions.jsonl:1: passage: no passage "p1" in passages.jsonl');
    expect(r.stderr).toContain('mentions.jsonl:1: entity: no entity "e1" in entities.jsonl');
    expect(r.stderr).toMatch(/passages\.jsonl:1: embedding: must hold \d+ numbers/);
  });

  it('refuses --offline without a target (exit 1) and --batch 0 (exit 2)', async () => {
    const dir = importFolder({ passages: [] });
    expect((await cli(['import', dir, '--offline'])).stderr).toContain('--offline needs one of --data-dir');
    expect((await cli(['import', dir, '--batch', '0'])).code).toBe(2);
  });
});
