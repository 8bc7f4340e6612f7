import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, logLevel: 'info', imageBaseUrl: 'http://localhost:3000', dbStatementTimeoutMs: 2000 });
  });

  it('parses numbers and trims the image base', () => {
    const c = loadConfig({ PORT: '8080', IMAGE_BASE_URL: 'https://img.example.com/', DB_POOL_SIZE: '4' });
    expect(c).toMatchObject({ port: 8080, imageBaseUrl: 'https://img.example.com', dbPoolSize: 4 });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [{ IMAGE_BASE_URL: 'ftp://x' }, 'IMAGE_BASE_URL'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ BOOTSTRAP_API_KEY: 'short' }, 'BOOTSTRAP_API_KEY'],
  ])('names the bad variable in %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });
});
