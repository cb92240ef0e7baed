/** "T=1..4,decay=0.3..0.9" (optional ":step") -> the gated parameter grid. */
export function parseSweep(spec: string): Record<string, unknown>[] {
  const axes = spec.split(',').map((part) => {
    const m = part.trim().match(/^(\w+)=([\d.]+)\.\.([\d.]+)(?::([\d.]+))?$/);
    if (!m) throw new Error(`--sweep: cannot read "${part}" (expected name=from..to[:step])`);
    const name = m[1] === 'T' ? 'steps' : m[1];
    const [from, to] = [Number(m[2]), Number(m[3])];
    const step = m[4] ? Number(m[4]) : Number.isInteger(from) && Number.isInteger(to) ? 1 : 0.2;
    const vals: number[] = [];
    for (let v = from; v <= to + 1e-9; v += step) vals.push(Math.round(v * 1000) / 1000);
    return { name, vals };
  });
  return axes.reduce<Record<string, unknown>[]>((grid, axis) => grid.flatMap((g) => axis.vals.map((v) => ({ ...g, [axis.name]: v }))), [{}]);
}
