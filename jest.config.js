// Tests in tiers: unit (no I/O), medium (repositories on a real database), e2e (HTTP via supertest),
// smoke (the built server started as a user would), browser (the web page in Chromium against the real app),
// docker (docker compose up from a fresh clone against a real Docker engine; skipped only without one).
const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: [`<rootDir>/test/${name}/**/*.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.test.json' }] },
});

module.exports = {
  projects: [tier('unit'), tier('medium'), tier('e2e'), tier('smoke'), tier('browser'), tier('docker')],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
  // `npm test` runs the files one after another in one worker (they share one throwaway database); the worker
  // is replaced when a file leaves it above this size, so memory held by earlier files cannot add up.
  workerIdleMemoryLimit: '1GB',
};
