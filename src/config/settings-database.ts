import { Setting, integer, matching, text, trueOrFalse } from './setting-types';
import { BUILT_IN_DATABASE_PLACEHOLDER } from './database-url';
import { replicaUrls } from './replica-urls';

// The database settings: where it is (or the built-in one), its pool, its statements' deadlines, its replicas. Rows of SETTINGS (settings.ts).
const postgresUrl = matching(/^postgres(ql)?:\/\/\S+$/, 'a postgresql:// connection string');

export const DATABASE_SETTINGS = {
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
} satisfies Record<string, Setting<unknown>>;
