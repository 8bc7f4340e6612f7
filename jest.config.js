// Tests in tiers: unit (no I/O), medium (repositories on a real database), e2e (HTTP via supertest),
// smoke (the built server started as a user would), browser (the web page in Chromium against the real app).
const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: [`<rootDir>/test/${name}/**/*.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
});

module.exports = {
  projects: [tier('unit'), tier('medium'), tier('e2e'), tier('smoke'), tier('browser')],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
};
