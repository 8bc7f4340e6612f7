import { corsOrigins } from './cors-origins';
import { httpUrl, integer, matching, oneOf, Setting, text, trueOrFalse } from './setting-types';
import { trustProxy } from './trust-proxy';
import { DATABASE_SETTINGS } from './settings-database';
import { IMAGE_SETTINGS } from './settings-images';
import { LIMIT_SETTINGS } from './settings-limits';

// Every setting, once: its environment variable, what values it accepts, its default and what it does.
// loadConfig() validates and reads the environment from this table, the error messages come from it, and
// the configuration table in docs/operations.md is generated from it (`npm run docs:config`; a unit test
// fails when the page is behind). The database's, the images' and the limits' rows are in files of their
// own (settings-*.ts). To add a setting, add a row to its topic; AppConfig gets the field by itself.

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];
// Which commands the startup log suggests: npm scripts in a checkout, or docker compose.
export const COMMAND_HINTS = ['npm', 'compose'] as const;
export type CommandHints = (typeof COMMAND_HINTS)[number];

export { RATE_LIMIT_MAX } from './settings-limits';

export const SETTINGS = {
  ...DATABASE_SETTINGS,
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
  ...IMAGE_SETTINGS,
  ...LIMIT_SETTINGS,
} satisfies Record<string, Setting<unknown>>;
