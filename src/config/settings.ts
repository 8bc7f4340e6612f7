import { corsOrigins } from './cors-origins';
import { BUILT_IN_DATABASE_PLACEHOLDER } from './database-url';
import { replicaUrls } from './replica-urls';
import { httpUrl, integer, matching, oneOf, Setting, text, trueOrFalse } from './setting-types';
import { trustProxy } from './trust-proxy';

// Every setting, once: its environment variable, what values it accepts, its default and what it does.
// loadConfig() validates and reads the environment from this table, the error messages come from it, and
// the configuration table in docs/operations.md is generated from it (`npm run docs:config`; a unit test
// fails when the page is behind). To add a setting, add a row here; AppConfig gets the field by itself.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
// Which commands the startup log suggests: npm scripts in a checkout, or docker compose.
export const COMMAND_HINTS = ['npm', 'compose'] as const;
export type CommandHints = (typeof COMMAND_HINTS)[number];

// Per-key limits (api_keys.rate_limit, same CHECK in the database) share this bound.
export const RATE_LIMIT_MAX = 100_000;

const postgresUrl = matching(/^postgres(ql)?:\/\/\S+$/, 'a postgresql:// connection string');

export const SETTINGS = {
  databaseUrl: {
    env: 'DATABASE_URL',
    // The placeholder prisma.config.ts sets for the Prisma CLI means "none given" (see database-url.ts).
    type: { ...postgresUrl, parse: (raw: string) => (raw === BUILT_IN_DATABASE_PLACEHOLDER ? undefined : raw) },
    shownDefault: 'unset: built-in database',
    meaning: 'PostgreSQL with PostGIS, pg_trgm and unaccent available',
  },
  dataDir: {
    env: 'DATA_DIR',
    type: text('a directory'),
    default: './.data',
    meaning: 'where the built-in database keeps its files',
  },
  builtInTemplate: {
    env: 'BUILT_IN_TEMPLATE',
    type: text('a directory, or `off`'),
    default: './node_modules/.cache/location-imagery-search/built-in-database',
    meaning:
      'the built-in database as a first start leaves it (schema, world gazetteer, demo catalogue), made by `npm install`; a first start copies it instead of loading for a minute or more. `off`: neither made nor used. See [Start and stop](#start-and-stop)',
  },
  port: { env: 'PORT', type: integer(0, 65535), default: 3000, meaning: 'HTTP port' },
  host: {
    env: 'HOST',
    type: text('an address to listen on'),
    shownDefault: '`127.0.0.1` with the built-in database (no `DATABASE_URL`), else `0.0.0.0`',
    meaning:
      'listen address. The built-in database serves its demo key to the page, so its server answers this machine only unless told otherwise (`HOST=0.0.0.0` exposes it, key included; see [security.md](security.md#the-built-in-server))',
  },
  bootstrapApiKey: {
    env: 'BOOTSTRAP_API_KEY',
    type: matching(/^[\x21-\x7e]{24,200}$/, '24 to 200 printable ASCII characters without spaces'),
    meaning:
      'a key to register at startup; unset with `DATABASE_URL`, the first start creates a key when none exists and prints it once',
  },
  publicUrl: {
    env: 'PUBLIC_URL',
    type: httpUrl,
    shownDefault: '`http://localhost:$PORT`',
    meaning:
      "where clients reach the API: the startup log's example request, and image links unless `IMAGE_BASE_URL` is set",
  },
  imageBaseUrl: {
    env: 'IMAGE_BASE_URL',
    type: httpUrl,
    shownDefault: '`PUBLIC_URL`',
    meaning: 'base for relative image paths',
  },
  imageStoreDir: {
    env: 'IMAGE_STORE_DIR',
    type: text('a directory'),
    shownDefault: '`$DATA_DIR/images`',
    meaning:
      'where photo imports keep the originals and their derivatives (content-addressed) and `/images/...` serves them from. See [data.md](data.md#photos)',
  },
  viewCacheMb: {
    env: 'VIEW_CACHE_MB',
    type: integer(0, 1_000_000),
    default: 512,
    meaning:
      'megabytes of rendered views (`/images/{id}/view.jpg`) kept on disk in `$IMAGE_STORE_DIR/views`, the oldest removed past it; `0`: none kept. See [api.md](api.md#rendered-views)',
  },
  viewPixelsMb: {
    env: 'VIEW_PIXELS_MB',
    type: integer(0, 100_000),
    default: 256,
    meaning:
      'megabytes of decoded photo pixels kept in memory per process for rendered views (the next view of the same photo only remaps), the least recently used dropped past it; `0`: none kept. See [api.md](api.md#rendered-views)',
  },
  viewsPerMinute: {
    env: 'VIEWS_PER_MINUTE',
    type: integer(1, 100_000),
    default: 600,
    meaning: '`GET /images/{id}/view.jpg` requests per client address per minute before 429 (the route needs no key)',
  },
  imageUrlSecret: {
    env: 'IMAGE_URL_SECRET',
    type: matching(/^[\x21-\x7e]{32,200}$/, '32 to 200 printable ASCII characters without spaces'),
    shownDefault: "unset: photos' image URLs are public",
    meaning:
      "makes photos' image URLs private: each URL a search returns carries a signature of its record (`?sig=`), `/images/...` answers 404 without a valid one, and caching is `private`. See [api.md](api.md#images)",
  },
  mapStyleUrl: {
    env: 'MAP_STYLE_URL',
    type: httpUrl,
    shownDefault: "unset: the service's own style (/map/style.json)",
    meaning:
      "a MapLibre style JSON for the web page's map instead of the service's own (other vector tiles); the page may then fetch from that URL's origin (its tiles, glyphs and sprites must be there too). See [web-page.md](web-page.md#map)",
  },
  commandHints: {
    env: 'COMMAND_HINTS',
    type: oneOf(COMMAND_HINTS),
    default: 'npm',
    meaning: 'which commands the startup log suggests: `npm` scripts or `compose` (docker compose)',
  },
  instanceName: {
    env: 'INSTANCE_NAME',
    type: matching(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, '1 to 64 letters, digits, dots, dashes or underscores'),
    meaning: 'when set, every response carries `x-served-by: <name>` (which instance behind a load balancer answered)',
  },
  logLevel: { env: 'LOG_LEVEL', type: oneOf(LOG_LEVELS), default: 'info', meaning: 'how much the server logs' },
  dbPoolSize: { env: 'DB_POOL_SIZE', type: integer(1, 100), default: 10, meaning: 'connections per process' },
  dbPreparedStatements: {
    env: 'DB_PREPARED_STATEMENTS',
    type: trueOrFalse,
    default: true,
    meaning:
      'searches as named prepared statements (planned per request all the same); set `false` behind a transaction-mode pooler such as PgBouncer. Always off on the built-in database',
  },
  dbStatementTimeoutMs: {
    env: 'DB_STATEMENT_TIMEOUT_MS',
    type: integer(100, 600_000),
    default: 2000,
    meaning: 'per-statement limit for API queries',
  },
  searchFallbackBudgetMs: {
    env: 'SEARCH_FALLBACK_BUDGET_MS',
    type: integer(1, 600_000),
    default: 500,
    meaning:
      "time a search's best-effort trigram steps may take (misspelt place names, similar addresses when nothing else matched); past it they count as finding nothing instead of failing the search. Capped at DB_STATEMENT_TIMEOUT_MS; not applied on the built-in database",
  },
  searchDeadlineMs: {
    env: 'SEARCH_DEADLINE_MS',
    type: integer(100, 600_000),
    default: 5000,
    meaning:
      'how long a search may take (`POST /search`, the STAC item search and collection items, the Street View metadata), waiting for connections and locks included; past it the answer is 503 with `Retry-After` at once (the Street View metadata: `UNKNOWN_ERROR`, as Google answers), and its statements still running are cancelled',
  },
  dbConnectTimeoutMs: {
    env: 'DB_CONNECT_TIMEOUT_MS',
    type: integer(100, 60_000),
    default: 2000,
    meaning: 'limit for opening a database connection or waiting for a pooled one',
  },
  databaseReadonlyUrl: {
    env: 'DATABASE_READONLY_URL',
    type: postgresUrl,
    meaning:
      'a role that can only read (see [security.md](security.md#least-privilege)); searches and key lookups use it, migrations and writes use `DATABASE_URL`',
  },
  databaseReplicaUrls: {
    env: 'DATABASE_REPLICA_URLS',
    type: replicaUrls,
    default: [] as string[],
    shownDefault: 'unset (no replicas)',
    meaning:
      'streaming replicas of `DATABASE_URL`: searches and key lookups go to the healthy ones in turn, writes to `DATABASE_URL`; with none healthy, reads go to `DATABASE_URL` (or `DATABASE_READONLY_URL`). See [Read replicas](#read-replicas)',
  },
  replicaMaxLagSeconds: {
    env: 'REPLICA_MAX_LAG_S',
    type: integer(0, 86_400),
    default: 30,
    meaning: 'a replica further behind its primary than this many seconds is skipped until it catches up',
  },
  replicaCheckIntervalMs: {
    env: 'REPLICA_CHECK_INTERVAL_MS',
    type: integer(100, 600_000),
    default: 5000,
    meaning:
      'how often each replica is checked (reachable, a standby, lag); a skipped replica is back in use after its first passing check',
  },
  rateLimitPerMinute: {
    env: 'RATE_LIMIT_PER_MINUTE',
    type: integer(1, RATE_LIMIT_MAX),
    default: 600,
    meaning: 'requests per minute per API key without its own limit',
  },
  authFailuresPerMinute: {
    env: 'AUTH_FAILURES_PER_MINUTE',
    type: integer(1, 10_000),
    default: 20,
    meaning:
      'failed authentications per client address per minute before it is locked out (429 for every request from it, a valid key too, until a full minute has passed)',
  },
  floodAnswerDelayMs: {
    env: 'FLOOD_ANSWER_DELAY_MS',
    type: integer(0, 10_000),
    default: 1000,
    meaning:
      "how long the answer to a flooding client is held: a locked-out address's 429, and a health probe over HEALTH_PROBES_PER_SECOND (`0` answers at once)",
  },
  heldAnswersMax: {
    env: 'HELD_ANSWERS_MAX',
    type: integer(0, 100_000),
    default: 1000,
    meaning:
      'answers held at once per instance (FLOOD_ANSWER_DELAY_MS); past it, a flooding client is answered at once',
  },
  healthProbesPerSecond: {
    env: 'HEALTH_PROBES_PER_SECOND',
    type: integer(1, 100_000),
    default: 20,
    meaning:
      '`/health/live` and `/health/ready` probes per client address per second answered at once; the ones over it are answered after FLOOD_ANSWER_DELAY_MS',
  },
  demoImagesPerMinute: {
    env: 'DEMO_IMAGES_PER_MINUTE',
    type: integer(1, 100_000),
    default: 300,
    meaning: '`GET /demo-images/{id}.svg` requests per client address per minute before 429 (the route needs no key)',
  },
  tilesRequireKey: {
    env: 'TILES_REQUIRE_KEY',
    type: trueOrFalse,
    default: false,
    meaning:
      "`true`: `GET /tiles/{z}/{x}/{y}.mvt` needs `x-api-key` and counts against the key's limit, as `/search` does; `false`: tiles are public, limited per client address (TILES_PER_MINUTE)",
  },
  tilesPerMinute: {
    env: 'TILES_PER_MINUTE',
    type: integer(1, 100_000),
    default: 3000,
    meaning:
      'tile requests per client address per minute before 429 when tiles need no key (a map view loads 10 to 40 tiles at a time)',
  },
  tilesMaxAgeSeconds: {
    env: 'TILES_MAX_AGE_SECONDS',
    type: integer(0, 31_536_000),
    default: 86400,
    meaning:
      'how long a browser may keep a tile without asking again (`Cache-Control: max-age`; `private` with TILES_REQUIRE_KEY=true); after that it revalidates with its ETag, which an import changes',
  },
  apiKeyCacheSeconds: {
    env: 'API_KEY_CACHE_SECONDS',
    type: integer(0, 300),
    default: 10,
    meaning:
      'how long a running server remembers a key it has checked (0 checks every request). A key revoked or re-limited with `npm run keys` is forgotten as soon as the server hears of it; while it is not listening (see [security.md](security.md#api-keys)), within this time',
  },
  redisUrl: {
    env: 'REDIS_URL',
    type: matching(/^rediss?:\/\/\S+$/, 'a redis:// or rediss:// URL'),
    meaning: 'share rate-limit counters between instances',
  },
  rateLimitRedisPrefix: {
    env: 'RATE_LIMIT_REDIS_PREFIX',
    type: matching(/^[\x21-\x7e]{1,64}$/, '1 to 64 printable ASCII characters'),
    default: 'lis:rate-limit:',
    meaning: 'key prefix in Redis, to share one Redis between deployments',
  },
  trustProxy: {
    env: 'TRUST_PROXY',
    type: trustProxy,
    default: false,
    shownDefault: 'unset (`false`)',
    meaning:
      'reverse proxies allowed to set `X-Forwarded-For`, e.g. `loopback,10.0.0.0/8` (`true` is refused: it would let clients choose their address)',
  },
  corsOrigins: {
    env: 'CORS_ORIGINS',
    type: corsOrigins,
    default: [],
    shownDefault: 'unset (CORS off)',
    meaning: 'origins allowed to call the API from a browser',
  },
  metricsToken: {
    env: 'METRICS_TOKEN',
    type: matching(/^[\x21-\x7e]{16,200}$/, '16 to 200 printable ASCII characters without spaces'),
    shownDefault: 'unset (`/metrics` closed)',
    meaning:
      '`GET /metrics` needs `Authorization: Bearer <token>`; unset, it answers 401 to everyone unless `METRICS_OPEN=true`',
  },
  metricsOpen: {
    env: 'METRICS_OPEN',
    type: trueOrFalse,
    default: false,
    meaning:
      '`true` opens `GET /metrics` to anyone who can reach it (version, routes, traffic) when no `METRICS_TOKEN` is set; for a private network only',
  },
  httpHeadersTimeoutMs: {
    env: 'HTTP_HEADERS_TIMEOUT_MS',
    type: integer(500, 600_000),
    default: 10_000,
    meaning:
      "how long a client may take to send a request's headers before 408 and a closed connection (slow clients, slowloris); at most `HTTP_REQUEST_TIMEOUT_MS`",
  },
  httpRequestTimeoutMs: {
    env: 'HTTP_REQUEST_TIMEOUT_MS',
    type: integer(500, 600_000),
    default: 30_000,
    meaning: 'how long a client may take to send a whole request, body included, before 408 and a closed connection',
  },
  shutdownTimeoutMs: {
    env: 'SHUTDOWN_TIMEOUT_MS',
    type: integer(0, 600_000),
    default: 10_000,
    meaning: 'on SIGTERM, how long in-flight requests may take before their connections are cut',
  },
  nodeEnv: {
    env: 'NODE_ENV',
    type: oneOf(NODE_ENVS),
    default: 'production',
    meaning: '`development` pretty-prints logs when stdout is a terminal (and `pino-pretty` is installed)',
  },
} satisfies Record<string, Setting<unknown>>;
