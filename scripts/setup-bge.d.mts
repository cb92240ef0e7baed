// Types for scripts/setup-bge.mjs (plain JS so it runs with bare `node`).
export declare const BGE_NAME: string;
export declare const BGE_DIR: string;
export declare const BGE_ARTIFACT: { group: string; artifact: string; version: string };
export declare const BGE_FILES: Record<string, { member: string; size: number; sha256: string }>;
/** Provisions (or verifies) the model folder and returns its path. */
export declare function ensureBge(opts?: { log?: (message: string) => void }): Promise<string>;
