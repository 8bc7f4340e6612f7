/** Tests in tiers: unit (no I/O), medium (repositories against real PostgreSQL/PostGIS), e2e (HTTP via supertest). */
const tier = (name) => ({
  displayName: name,
  testEnvironment: 'node',
  rootDir: __dirname,
  testMatch: [`<rootDir>/test/${name}/**/*.spec.ts`],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.json' }] },
});

module.exports = {
  projects: [tier('unit'), tier('medium'), tier('e2e')],
  globalSetup: '<rootDir>/test/setup/global-setup.ts',
  globalTeardown: '<rootDir>/test/setup/global-teardown.ts',
  testTimeout: 60_000,
};
