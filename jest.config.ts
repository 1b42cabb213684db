import type { Config } from 'jest';

// Nest 12 ships ES modules only, so Jest runs in its native ESM mode
// (node --experimental-vm-modules, see package.json) and ts-jest emits ESM.
// `#market`, `#exchange`, ... resolve through package.json "imports": the `tidewatch-source` condition
// points them at the TypeScript sources, as it does for tsc (tsconfig.json customConditions).
const common = {
  rootDir: '.',
  testEnvironment: 'node',
  testEnvironmentOptions: { customExportConditions: ['tidewatch-source', 'node', 'node-addons'] },
  extensionsToTreatAsEsm: ['.ts'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  moduleNameMapper: { '^(\\.{1,2}/.*)\\.js$': '$1' },
  transform: {
    '^.+\\.ts$': ['ts-jest', { useESM: true, tsconfig: '<rootDir>/tsconfig.json' }],
  },
  setupFiles: ['<rootDir>/test/setup/reflect-metadata.ts'],
} satisfies Config;

// Five tiers (docs/architecture.md, "Tests"): pure units need no server; database specs, e2e, the fault soak and
// the browser tests (a headless Chromium driving the dashboard the api serves) each get one database per Jest worker, created by the global set-up. `npm run test:unit` selects the first.
// The fault soak runs for minutes, so it has a tier of its own that `npm run test:e2e` leaves out.
const config: Config = {
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/{apps,libs,bench}/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'db',
      testMatch: ['<rootDir>/{apps,libs,bench}/**/*.db-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/e2e/**/*.e2e-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
    },
    {
      ...common,
      displayName: 'faults',
      testMatch: ['<rootDir>/test/faults/**/*.fault-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
    },
    {
      ...common,
      displayName: 'browser',
      testMatch: ['<rootDir>/test/browser/**/*.browser-spec.ts'],
      globalSetup: '<rootDir>/test/setup/global-setup.ts',
    },
  ],
  reporters: ['default', '<rootDir>/test/setup/summary-reporter.cjs'],
  maxWorkers: 2,
  testTimeout: 60_000,
};

export default config;
