import { ConfigError, loadConfig } from '../../src/config/app-config';

describe('loadConfig', () => {
  it('has working defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      port: 3000,
      logLevel: 'info',
      imageBaseUrl: 'http://localhost:3000',
      dbStatementTimeoutMs: 2000,
    });
  });

  it('listens on loopback with the built-in database, on every interface with a server database, or on HOST', () => {
    const server = 'postgresql://lis@db:5432/lis';
    expect(loadConfig({}).host).toBe('127.0.0.1');
    expect(loadConfig({ DATABASE_URL: server }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
    expect(loadConfig({ HOST: '::1', DATABASE_URL: server }).host).toBe('::1');
  });

  it('has reliability defaults: limits per minute, timeouts, no Redis, no trusted proxy', () => {
    expect(loadConfig({})).toMatchObject({
      rateLimitPerMinute: 600,
      authFailuresPerMinute: 20,
      demoImagesPerMinute: 300,
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
      DEMO_IMAGES_PER_MINUTE: '40',
      DB_CONNECT_TIMEOUT_MS: '750',
      REDIS_URL: 'redis://cache:6379/2',
      DATABASE_READONLY_URL: 'postgresql://reader:secret@db/lis',
    });
    expect(c).toMatchObject({
      rateLimitPerMinute: 1200,
      authFailuresPerMinute: 5,
      demoImagesPerMinute: 40,
      dbConnectTimeoutMs: 750,
      redisUrl: 'redis://cache:6379/2',
      databaseReadonlyUrl: 'postgresql://reader:secret@db/lis',
    });
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: 'loopback, 10.0.0.0/8,::1' }).trustProxy).toEqual([
      'loopback',
      '10.0.0.0/8',
      '::1',
    ]);
  });

  it('cuts slow clients off after 10 s for the headers and 30 s for the whole request, unless told otherwise', () => {
    expect(loadConfig({})).toMatchObject({ httpHeadersTimeoutMs: 10_000, httpRequestTimeoutMs: 30_000 });
    expect(loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '2000', HTTP_REQUEST_TIMEOUT_MS: '2000' })).toMatchObject({
      httpHeadersTimeoutMs: 2000,
      httpRequestTimeoutMs: 2000,
    });
    expect(() => loadConfig({ HTTP_HEADERS_TIMEOUT_MS: '40000' })).toThrow(
      'HTTP_HEADERS_TIMEOUT_MS must be at most HTTP_REQUEST_TIMEOUT_MS',
    );
  });

  it('parses numbers and trims the image base', () => {
    const c = loadConfig({ PORT: '8080', IMAGE_BASE_URL: 'https://img.example.com/', DB_POOL_SIZE: '4' });
    expect(c).toMatchObject({ port: 8080, imageBaseUrl: 'https://img.example.com', dbPoolSize: 4 });
  });

  it('takes the public URL for the startup hints and, unless IMAGE_BASE_URL says otherwise, for image links', () => {
    expect(loadConfig({})).toMatchObject({ publicUrl: undefined, commandHints: 'npm' });
    const c = loadConfig({ PUBLIC_URL: 'http://localhost:4000/', COMMAND_HINTS: 'compose' });
    expect(c).toMatchObject({
      publicUrl: 'http://localhost:4000',
      imageBaseUrl: 'http://localhost:4000',
      commandHints: 'compose',
    });
    expect(
      loadConfig({ PUBLIC_URL: 'https://api.example.com', IMAGE_BASE_URL: 'https://img.example.com' }).imageBaseUrl,
    ).toBe('https://img.example.com');
  });

  it("takes the web page's map style from MAP_STYLE_URL; unset is the service's own style", () => {
    expect(loadConfig({}).mapStyleUrl).toBeUndefined();
    expect(loadConfig({ MAP_STYLE_URL: 'https://tiles.example.com/style.json' }).mapStyleUrl).toBe(
      'https://tiles.example.com/style.json',
    );
  });

  it.each([
    [{ MAP_STYLE_URL: 'tiles.example.com/style.json' }, 'MAP_STYLE_URL'],
    [{ PUBLIC_URL: 'localhost:3000' }, 'PUBLIC_URL'],
    [{ COMMAND_HINTS: 'kubectl' }, 'COMMAND_HINTS'],
    [{ INSTANCE_NAME: 'api 1' }, 'INSTANCE_NAME'],
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
    [{ DEMO_IMAGES_PER_MINUTE: '0' }, 'DEMO_IMAGES_PER_MINUTE'],
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
    expect(loadConfig({})).toMatchObject({
      corsOrigins: [],
      metricsToken: undefined,
      shutdownTimeoutMs: 10_000,
      nodeEnv: 'production',
    });
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

  describe('read replicas', () => {
    const primary = { DATABASE_URL: 'postgresql://app@db/lis' };
    const problem = (env: Record<string, string>) => {
      try {
        loadConfig({ ...primary, ...env });
      } catch (e) {
        return (e as Error).message;
      }
      throw new Error('expected a configuration error');
    };

    it('has none by default, 30 s of allowed lag and a check every 5 s', () => {
      expect(loadConfig(primary)).toMatchObject({
        databaseReplicaUrls: [],
        replicaMaxLagSeconds: 30,
        replicaCheckIntervalMs: 5000,
      });
    });

    it('reads a comma-separated list of replicas, the lag limit and the check interval', () => {
      const c = loadConfig({
        ...primary,
        DATABASE_REPLICA_URLS: 'postgresql://app@replica-1/lis, postgres://app:p%40ss@replica-2:6432/lis',
        REPLICA_MAX_LAG_S: '5',
        REPLICA_CHECK_INTERVAL_MS: '1000',
      });
      expect(c).toMatchObject({
        databaseReplicaUrls: ['postgresql://app@replica-1/lis', 'postgres://app:p%40ss@replica-2:6432/lis'],
        replicaMaxLagSeconds: 5,
        replicaCheckIntervalMs: 1000,
      });
    });

    it('names the bad item without printing its password', () => {
      expect(
        problem({ DATABASE_REPLICA_URLS: 'postgresql://app@replica-1/lis,mysql://root:hunter2@replica-2/lis' }),
      ).toContain(
        'DATABASE_REPLICA_URLS must be a comma-separated list of up to 16 distinct postgresql:// connection strings: item 2 is not a postgresql:// connection string',
      );
      const duplicate = problem({
        DATABASE_REPLICA_URLS: 'postgresql://a:hunter2@replica-1/lis,postgresql://b@replica-1:5432/lis',
      });
      expect(duplicate).toContain(': item 2 (replica-1:5432/lis) is listed twice');
      expect(duplicate).not.toContain('hunter2');
      expect(problem({ DATABASE_REPLICA_URLS: 'postgresql://app@[bad/lis' })).toContain(': item 1 is not a valid URL');
      expect(problem({ DATABASE_REPLICA_URLS: ' , ' })).toContain('postgresql:// connection strings: it lists none');
      expect(problem({ REPLICA_MAX_LAG_S: '-1' })).toContain(
        'REPLICA_MAX_LAG_S must be an integer between 0 and 86400',
      );
      expect(problem({ REPLICA_CHECK_INTERVAL_MS: '10' })).toContain(
        'REPLICA_CHECK_INTERVAL_MS must be an integer between 100 and 600000',
      );
    });

    it('refuses replicas without DATABASE_URL (the built-in database has none)', () => {
      expect(() => loadConfig({ DATABASE_REPLICA_URLS: 'postgresql://app@replica-1/lis' })).toThrow(
        'DATABASE_REPLICA_URLS needs DATABASE_URL',
      );
    });
  });
});
