import type { Progress } from './types.js';

/** A one-line progress bar with rate and ETA on stderr (plain lines when stderr is not a terminal). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (p: Progress) => void {
  let stage = '';
  let started = performance.now();
  let startDone = 0;
  let lastPlain = 0;
  return (p) => {
    if (p.total === 0) return; // a stage with nothing to do
    if (p.stage !== stage) {
      if (stage && stream.isTTY) stream.write('\n');
      stage = p.stage;
      started = performance.now();
      // The rate counts from the stage's first report: a stage first reported at done > 0 (or
      // twice within a microsecond) would otherwise show millions per second.
      startDone = p.done;
    }
    const elapsed = (performance.now() - started) / 1000;
    const rate = elapsed >= 0.5 && p.done > startDone ? (p.done - startDone) / elapsed : 0;
    const eta = rate > 0 ? (p.total - p.done) / rate : NaN;
    const pct = p.total ? Math.floor((100 * p.done) / p.total) : 100;
    const width = 30;
    const filled = Math.round((width * pct) / 100);
    const line =
      `${p.stage.padEnd(10)} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${pct}% ${p.done}/${p.total}` +
      `${rate ? ` ${rate.toFixed(1)}/s` : ''}${Number.isFinite(eta) && p.done < p.total ? ` ETA ${formatSeconds(eta)}` : ''}`;
    if (stream.isTTY) stream.write(`\r${line}\x1b[K`);
    else if (p.done === p.total || performance.now() - lastPlain > 5000) {
      lastPlain = performance.now();
      stream.write(`${line}\n`);
    }
    if (stream.isTTY && p.done === p.total) stream.write('\n');
  };
}

export function formatSeconds(s: number): string {
  if (s < 60) return `${s.toFixed(0)}s`;
  const m = Math.floor(s / 60);
  return m < 60 ? `${m}m${String(Math.round(s % 60)).padStart(2, '0')}s` : `${Math.floor(m / 60)}h${String(m % 60).padStart(2, '0')}m`;
}
