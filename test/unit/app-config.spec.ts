import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({ port: 3000, logLevel: 'info', imageBaseUrl: 'http://localhost:3000', dbStatementTimeoutMs: 2000 });
  });

  it('has reliability defaults: limits per minute, timeouts, no Redis, no trusted proxy', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitPerMinute: 600,
      authFailuresPerMinute: 20,
      dbConnectTimeoutMs: 2000,
      redisUrl: undefined,
      rateLimitRedisPrefix: 'lis:rate-limit:',
      databaseReadonlyUrl: undefined,
      trustProxy: false,
    });
  });

  it('parses the reliability settings', () => {
    const c = loadConfig({
      RATE_LIMIT_PER_MINUTE: '1200',
      AUTH_FAILURES_PER_MINUTE: '5',
      DB_CONNECT_TIMEOUT_MS: '750',
      REDIS_URL: 'redis://cache:6379/2',
      DATABASE_READONLY_URL: 'postgresql://reader:secret@db/lis',
    });
    expect(c).toMatchObject({
      rateLimitPerMinute: 1200,
      authFailuresPerMinute: 5,
      dbConnectTimeoutMs: 750,
      redisUrl: 'redis://cache:6379/2',
      databaseReadonlyUrl: 'postgresql://reader:secret@db/lis',
    });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual(['loopback', '10.0.0.0/8', '::1']);
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
    [{ DB_CONNECT_TIMEOUT_MS: '50' }, 'DB_CONNECT_TIMEOUT_MS'],
    [{ DATABASE_READONLY_URL: 'reader@db' }, 'DATABASE_READONLY_URL'],
    [{ RATE_LIMIT_PER_MINUTE: '0' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ RATE_LIMIT_PER_MINUTE: '100001' }, 'RATE_LIMIT_PER_MINUTE'],
    [{ AUTH_FAILURES_PER_MINUTE: 'many' }, 'AUTH_FAILURES_PER_MINUTE'],
    [{ REDIS_URL: 'http://cache:6379' }, 'REDIS_URL'],
    [{ RATE_LIMIT_REDIS_PREFIX: 'has space' }, 'RATE_LIMIT_REDIS_PREFIX'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '11' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY'],
    [{ TRUST_PROXY: 'proxy.example.com' }, 'TRUST_PROXY'],
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
