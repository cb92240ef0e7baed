// Subject: bench/eval.ts's command line: the variants it measures, refused before any database starts.
import { spawn } from 'node:child_process';
import path from 'node:path';

const ROOT = process.cwd();

function evalCli(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'bench', 'eval.ts'), ...args], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

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
