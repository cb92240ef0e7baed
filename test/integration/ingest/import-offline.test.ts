// Subject: graph-recall import --offline: validated rows written as CSV, then neo4j-admin builds a new store from them.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../../../server/config.js';
import { runAdminImport, scratchAdmin, writeImportCsv } from '../../../server/ingest/import/offline.js';
import { validateFolder } from '../../../server/ingest/import/validate.js';
import { TEST_DIM } from '../../support/db.js';
import { axis, importFolder } from '../../support/import-folder.js';

/** Issue 28: the offline path's files and neo4j-admin's multiline parsing, which only a line break in a field needs. */

const scratchDataDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'offline-import-'));

const folder = (secondText: string) =>
  importFolder({
    passages: [
      { id: 'p1', documentId: 'd1', title: 'Aspirin', text: 'Aspirin treats headache and is made by "Bayer".', embedding: axis(0) },
      { id: 'p2', documentId: 'd2', title: 'Bayer', text: secondText, embedding: axis(1) },
    ],
    entities: [
      { id: 'aspirin', name: 'Aspirin', type: 'Compound', embedding: axis(10) },
      { id: 'bayer', name: 'Bayer', type: 'Organization', description: 'A maker,\nof drugs', embedding: axis(11), descriptionEmbedding: axis(12) },
    ],
    mentions: [
      { passage: 'p1', entity: 'aspirin' },
      { passage: 'p2', entity: 'bayer' },
    ],
    relationships: [{ from: 'bayer', to: 'aspirin', predicate: 'makes', passageId: 'p1', embedding: axis(20) }],
  });

/** The counts neo4j-admin prints after "Imported:". */
function imported(output: string) {
  const n = (what: string) => Number(new RegExp(`(\\d+) ${what}`).exec(output.slice(output.indexOf('Imported:')))?.[1]);
  return { nodes: n('nodes'), relationships: n('relationships') };
}

/** Validates an import folder, writes its CSV and runs neo4j-admin on a store of its own (removed afterwards). */
async function importOffline(dir: string, multiline?: boolean) {
  const v = await validateFolder(dir, { dimension: TEST_DIM });
  const dataDir = scratchDataDir();
  try {
    const csv = await writeImportCsv(v.source, path.join(dataDir, 'csv'));
    const run = runAdminImport(scratchAdmin(ROOT, dataDir, '512m'), multiline === undefined ? csv : { ...csv, multiline });
    return { csv, run };
  } finally {
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

describe('graph-recall import --offline', () => {
  // nodes: 2 passages, 2 documents, 2 entities and the meta node; relationships: 2 PART_OF, 2 MENTIONS, 1 RELATED
  const whole = { nodes: 7, relationships: 5 };

  it('imports a passage whose text spans lines, parsing multiline only because a field needs it', async () => {
    const { csv, run } = await importOffline(folder('Bayer, of Leverkusen,\nmakes aspirin.\r\nIt says "take two".'));
    expect(csv.multiline).toBe(true);
    expect(imported(run.output)).toEqual(whole);
  }, 120_000);

  it('imports one-line fields without multiline parsing, which a line break would fail', async () => {
    const { csv, run } = await importOffline(
      importFolder({
        passages: [{ id: 'p1', documentId: 'd1', title: 'Aspirin', text: 'Aspirin, "the" drug.', embedding: axis(0) }],
        entities: [{ id: 'aspirin', name: 'Aspirin', type: 'Compound', embedding: axis(10) }],
        mentions: [{ passage: 'p1', entity: 'aspirin' }],
      }),
    );
    expect(csv.multiline).toBe(false);
    expect(imported(run.output)).toEqual({ nodes: 4, relationships: 2 });
    // And the flag matters: the multiline rows read as one-line rows are refused.
    await expect(importOffline(folder('Bayer, of Leverkusen,\nmakes aspirin.'), false)).rejects.toThrow(/multiple lines|multiline/i);
  }, 180_000);
});
