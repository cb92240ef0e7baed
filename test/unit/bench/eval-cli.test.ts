// Subject: bench/eval.ts's command line: the variants it measures, refused before any database starts.
import path from 'node:path';
import { ROOT } from '../../../server/config.js';
import { runScript } from '../../support/cli.js';

const evalCli = (args: string[]) => runScript(path.join(ROOT, 'bench', 'eval.ts'), args);

describe('npm run eval: --variants', () => {
  it('refuses a variant named like a mode it already measures, naming it', async () => {
    const r = await evalCli([
      '--dataset',
      'bench/data/musique',
      '--modes',
      'vector,gated',
      '--variants',
      '[{"name":"gated","mode":"gated","params":{"topK":100}}]',
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--variants: the name "gated" is measured already');
  });

  it('refuses an unknown mode in a variant', async () => {
    const r = await evalCli(['--dataset', 'bench/data/musique', '--variants', '[{"name":"x","mode":"bogus","params":{}}]']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--variants: unknown mode "bogus"');
  });
});
