/** Dependency-free SVG charts for the eval reports. */
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const COLORS = ['#4e79a7', '#f28e2b', '#59a14f', '#e15759', '#76b7b2', '#edc948', '#b07aa1', '#ff9da7', '#9c755f', '#bab0ac'];

/** Horizontal bars, values in [0, 1]. */
export function barChartSvg(title: string, bars: { label: string; value: number }[]): string {
  const rowH = 28;
  const left = 200;
  const width = 640;
  const height = 50 + bars.length * rowH;
  const scale = width - left - 70;
  const rows = bars.map((b, i) => {
    const y = 40 + i * rowH;
    const w = Math.max(0, Math.min(1, b.value)) * scale;
    return (
      `<text x="${left - 8}" y="${y + 17}" text-anchor="end" font-size="13">${esc(b.label)}</text>` +
      `<rect x="${left}" y="${y + 4}" width="${w.toFixed(1)}" height="${rowH - 8}" fill="${COLORS[i % COLORS.length]}"/>` +
      `<text x="${left + w + 6}" y="${y + 17}" font-size="12">${b.value.toFixed(3)}</text>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="10" y="24" font-size="16" font-weight="bold">${esc(title)}</text>${rows.join('')}</svg>\n`
  );
}

/** One row per series: a box from p25 to p75, whiskers to p5 and p95, a tick at the median (log scale). */
export function latencyChartSvg(title: string, series: { label: string; values: number[] }[]): string {
  const rowH = 30;
  const left = 200;
  const width = 700;
  const height = 70 + series.length * rowH;
  const all = series.flatMap((s) => s.values).filter((v) => v > 0);
  const lo = Math.log10(Math.max(0.1, Math.min(...all)));
  const hi = Math.log10(Math.max(...all) * 1.1);
  const x = (v: number) => left + ((Math.log10(Math.max(v, 0.1)) - lo) / (hi - lo || 1)) * (width - left - 30);
  const q = (vs: number[], p: number) => {
    const s = [...vs].sort((a, b) => a - b);
    return s[Math.min(s.length - 1, Math.floor(p * s.length))];
  };
  const rows = series.map((s, i) => {
    const y = 40 + i * rowH + rowH / 2;
    const [p5, p25, p50, p75, p95] = [0.05, 0.25, 0.5, 0.75, 0.95].map((p) => q(s.values, p));
    const c = COLORS[i % COLORS.length];
    return (
      `<text x="${left - 8}" y="${y + 4}" text-anchor="end" font-size="13">${esc(s.label)}</text>` +
      `<line x1="${x(p5)}" x2="${x(p95)}" y1="${y}" y2="${y}" stroke="${c}"/>` +
      `<rect x="${x(p25)}" y="${y - 8}" width="${Math.max(1, x(p75) - x(p25))}" height="16" fill="${c}" fill-opacity="0.5" stroke="${c}"/>` +
      `<line x1="${x(p50)}" x2="${x(p50)}" y1="${y - 10}" y2="${y + 10}" stroke="black" stroke-width="2"/>` +
      `<text x="${x(p95) + 6}" y="${y + 4}" font-size="11">p50 ${p50.toFixed(0)} ms</text>`
    );
  });
  const ticks = [1, 3, 10, 30, 100, 300, 1000, 3000, 10000].filter((t) => Math.log10(t) >= lo && Math.log10(t) <= hi);
  const axisY = 45 + series.length * rowH;
  const axis = ticks.map(
    (t) =>
      `<line x1="${x(t)}" x2="${x(t)}" y1="${axisY}" y2="${axisY + 5}" stroke="#444"/><text x="${x(t)}" y="${axisY + 18}" text-anchor="middle" font-size="11">${t}</text>`,
  );
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="10" y="24" font-size="16" font-weight="bold">${esc(title)} (ms, log scale; box p25-p75, whiskers p5-p95)</text>` +
    `${rows.join('')}<line x1="${left}" x2="${width - 30}" y1="${axisY}" y2="${axisY}" stroke="#444"/>${axis.join('')}</svg>\n`
  );
}

/** Lines of y against x, both on log scales (the scale benchmark's p50 per mode against size). */
export function logLogChartSvg(title: string, xLabel: string, yLabel: string, series: { label: string; points: { x: number; y: number }[] }[]): string {
  const width = 640;
  const height = 420;
  const [left, right, top, bottom] = [70, 150, 40, 50];
  const xs = series.flatMap((s) => s.points.map((p) => p.x)).filter((v) => v > 0);
  const ys = series.flatMap((s) => s.points.map((p) => p.y)).filter((v) => v > 0);
  const range = (vs: number[]) => [Math.floor(Math.log10(Math.min(...vs))), Math.ceil(Math.log10(Math.max(...vs)))];
  const [x0, x1] = range(xs);
  const [y0, y1] = range(ys);
  const x = (v: number) => left + ((Math.log10(v) - x0) / (x1 - x0 || 1)) * (width - left - right);
  const y = (v: number) => height - bottom - ((Math.log10(v) - y0) / (y1 - y0 || 1)) * (height - top - bottom);
  const grid: string[] = [];
  for (let e = x0; e <= x1; e++) {
    grid.push(`<line x1="${x(10 ** e)}" x2="${x(10 ** e)}" y1="${top}" y2="${height - bottom}" stroke="#ddd"/>`);
    grid.push(`<text x="${x(10 ** e)}" y="${height - bottom + 16}" text-anchor="middle" font-size="11">${(10 ** e).toLocaleString('en-US')}</text>`);
  }
  for (let e = y0; e <= y1; e++) {
    grid.push(`<line x1="${left}" x2="${width - right}" y1="${y(10 ** e)}" y2="${y(10 ** e)}" stroke="#ddd"/>`);
    grid.push(`<text x="${left - 6}" y="${y(10 ** e) + 4}" text-anchor="end" font-size="11">${10 ** e}</text>`);
  }
  const lines = series.map((s, i) => {
    const c = COLORS[i % COLORS.length];
    const pts = s.points.filter((p) => p.x > 0 && p.y > 0);
    const last = pts[pts.length - 1];
    return (
      `<polyline fill="none" stroke="${c}" stroke-width="2" points="${pts.map((p) => `${x(p.x).toFixed(1)},${y(p.y).toFixed(1)}`).join(' ')}"/>` +
      pts.map((p) => `<circle cx="${x(p.x).toFixed(1)}" cy="${y(p.y).toFixed(1)}" r="3" fill="${c}"/>`).join('') +
      (last ? `<text x="${width - right + 8}" y="${y(last.y) + 4}" font-size="12" fill="${c}">${esc(s.label)} ${last.y.toFixed(1)}</text>` : '')
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" font-family="sans-serif">` +
    `<rect width="100%" height="100%" fill="white"/><text x="10" y="24" font-size="16" font-weight="bold">${esc(title)}</text>` +
    `${grid.join('')}<text x="${(left + width - right) / 2}" y="${height - 12}" text-anchor="middle" font-size="12">${esc(xLabel)}</text>` +
    `<text x="16" y="${(top + height - bottom) / 2}" font-size="12" transform="rotate(-90 16 ${(top + height - bottom) / 2})" text-anchor="middle">${esc(yLabel)}</text>` +
    `${lines.join('')}</svg>\n`
  );
}
