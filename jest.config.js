/**
 * Two projects: `unit` needs no database (`npm run test:unit`); `integration`
 * gets a real Neo4j from test/global-setup.ts, which runs only when an
 * integration test is selected.
 */
const shared = {
  preset: 'ts-jest/presets/default-esm',
  // Node environment whose typed arrays are the outer realm's, so onnxruntime-node accepts tensors.
  testEnvironment: '<rootDir>/test/support/onnx-env.cjs',
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true }] },
};

export default {
  testTimeout: 120000,
  projects: [
    { ...shared, displayName: 'unit', roots: ['<rootDir>/test/unit'], testMatch: ['**/*.test.ts'] },
    {
      ...shared,
      displayName: 'integration',
      roots: ['<rootDir>/test/integration'],
      testMatch: ['**/*.test.ts'],
      globalSetup: '<rootDir>/test/global-setup.ts',
      globalTeardown: '<rootDir>/test/global-teardown.ts',
    },
  ],
};
