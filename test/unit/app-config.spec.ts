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
    [{ CORS_ORIGINS: 'app.example.com' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://app.example.com/path' }, 'CORS_ORIGINS'],
    [{ CORS_ORIGINS: 'https://a.example.com,,https://b.example.com' }, 'CORS_ORIGINS'],
    [{ METRICS_TOKEN: 'too-short' }, 'METRICS_TOKEN'],
    [{ METRICS_TOKEN: 'has a space in it, so no good' }, 'METRICS_TOKEN'],
    [{ SHUTDOWN_TIMEOUT_MS: '-1' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ SHUTDOWN_TIMEOUT_MS: '10s' }, 'SHUTDOWN_TIMEOUT_MS'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
  ])('names the bad variable in %j', (env, name) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(name);
  });

  it('states the rule, once per bad variable', () => {
    let message = '';
    try {
      loadConfig({ SHUTDOWN_TIMEOUT_MS: 'soon', CORS_ORIGINS: 'nope' });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message.split('\n').filter((l) => l.includes('SHUTDOWN_TIMEOUT_MS'))).toEqual([
      '  - SHUTDOWN_TIMEOUT_MS must be an integer between 0 and 600000',
    ]);
    expect(message.split('\n').filter((l) => l.includes('CORS_ORIGINS'))).toHaveLength(1);
  });

  it('keeps CORS closed, metrics open and a 10 s shutdown by default', () => {
    expect(loadConfig({})).toMatchObject({ corsOrigins: [], metricsToken: undefined, shutdownTimeoutMs: 10_000, nodeEnv: 'production' });
  });

  it('parses CORS_ORIGINS as a list of origins, or *', () => {
    expect(loadConfig({ CORS_ORIGINS: 'https://a.example.com, http://localhost:5173' }).corsOrigins).toEqual([
      'https://a.example.com',
      'http://localhost:5173',
    ]);
    expect(loadConfig({ CORS_ORIGINS: '*' }).corsOrigins).toBe('*');
  });

  it('reads METRICS_TOKEN, SHUTDOWN_TIMEOUT_MS and NODE_ENV', () => {
    const c = loadConfig({ METRICS_TOKEN: 'x'.repeat(32), SHUTDOWN_TIMEOUT_MS: '2500', NODE_ENV: 'development' });
    expect(c).toMatchObject({ metricsToken: 'x'.repeat(32), shutdownTimeoutMs: 2500, nodeEnv: 'development' });
  });
});
