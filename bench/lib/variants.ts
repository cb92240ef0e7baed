import { MODE_NAMES, type Mode } from '../../server/retrieval/params.js';
import { validateParams } from '../../server/retrieval/service.js';

/** One measured run of a benchmark: a mode and its parameters, under the name its row in the report carries. */
export interface Variant {
  name: string;
  mode: Mode;
  params: Record<string, unknown>;
}

/** `--variants '[{"name": "gated+rrf", "mode": "gated", "params": {"fusion": "rrf"}}]'`: each mode must be known. */
export function parseVariants(json: string | undefined): Variant[] {
  const variants = json ? (JSON.parse(json) as Variant[]) : [];
  for (const v of variants) if (!MODE_NAMES.includes(v.mode)) throw new Error(`--variants: unknown mode "${v.mode}"`);
  return variants.map((v) => ({ ...v, params: v.params ?? {} }));
}

/**
 * Every run's name is one row of the report and one key of its results: a second "gated" would be measured twice
 * and listed twice. And every run's parameters pass the API's own validation.
 */
export function checkVariants(runs: Variant[]): void {
  const seen = new Set<string>();
  for (const v of runs) {
    if (seen.has(v.name))
      throw new Error(`--variants: the name "${v.name}" is measured already (by --modes or an earlier variant); give the variant another name`);
    seen.add(v.name);
    validateParams(v.mode, v.params);
  }
}
