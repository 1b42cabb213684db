import type { Config } from 'jest';

// Nest 12 ships ES modules only, so Jest runs in its native ESM mode
// (node --experimental-vm-modules, see package.json) and ts-jest emits ESM.
const config: Config = {
  rootDir: '.',
  testEnvironment: 'node',
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  testMatch: ['<rootDir>/libs/**/*.spec.ts', '<rootDir>/apps/**/*.spec.ts', '<rootDir>/bench/**/*.spec.ts', '<rootDir>/test/**/*.e2e-spec.ts'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  setupFiles: ['<rootDir>/test/setup/reflect-metadata.ts'],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.cjs'],
  maxWorkers: 2,
  testTimeout: 60_000,
};

export default config;
