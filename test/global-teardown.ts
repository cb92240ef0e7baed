/** Stops a Testcontainers database; a JVM-launched one is left running for the next run (db:stop stops it). */
export default async function globalTeardown(): Promise<void> {
  const container = (globalThis as Record<string, unknown>).__NEO4J_CONTAINER__ as { stop(): Promise<unknown> } | undefined;
  if (container) await container.stop();
}
