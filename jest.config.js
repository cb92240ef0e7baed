/** Unit tests need no database; integration tests get one from test/global-setup.ts. */
export default {
  preset: 'ts-jest/presets/default-esm',
  // Node environment whose typed arrays are the outer realm's, so onnxruntime-node accepts tensors.
  testEnvironment: '<rootDir>/test/support/onnx-env.cjs',
  roots: ['<rootDir>/test'],
  testMatch: ['**/*.test.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: { '^.+\\.ts$': ['ts-jest', { useESM: true, isolatedModules: true }] },
  globalSetup: '<rootDir>/test/global-setup.ts',
  globalTeardown: '<rootDir>/test/global-teardown.ts',
  testTimeout: 120000,
};
