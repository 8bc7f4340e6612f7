import { join } from 'node:path';
import { Setting, ValueType } from './setting-types';
import { SETTINGS } from './settings';

export { COMMAND_HINTS, LOG_LEVELS, NODE_ENVS, RATE_LIMIT_MAX } from './settings';
export type { CommandHints, LogLevel, NodeEnv } from './settings';

// One field per row of SETTINGS, typed by the row: its value type, `| undefined` when it has no default.
type ValueOf<S> = S extends { type: ValueType<infer T>; default: unknown }
  ? T
  : S extends { type: ValueType<infer T> }
    ? T | undefined
    : never;
type Settings = typeof SETTINGS;
type FromTable = { [K in keyof Settings]: ValueOf<Settings[K]> };

// The defaults that depend on others: IMAGE_BASE_URL falls back to PUBLIC_URL, then to this server;
// IMAGE_STORE_DIR to DATA_DIR's images folder; HOST is loopback with the built-in database (whose page
// hands out its demo key), else every interface.
export type AppConfig = Omit<FromTable, 'imageBaseUrl' | 'imageStoreDir' | 'host'> & {
  imageBaseUrl: string;
  /** IMAGE_STORE_DIR, else the images folder of DATA_DIR. */
  imageStoreDir: string;
  host: string;
  /** Set for the built-in database, whose connections all share one session (no per-request transactions). */
  dbSharedSession?: boolean;
};

export class ConfigError extends Error {}

export function requireDatabaseUrl(config: AppConfig): string {
  if (!config.databaseUrl) throw new Error('No database URL: the built-in database was not started');
  return config.databaseUrl;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const values: Record<string, unknown> = {};
  const problems: string[] = [];
  for (const [key, setting] of Object.entries(SETTINGS) as [string, Setting<unknown>][]) {
    const raw = env[setting.env];
    // Empty strings count as unset, as in most twelve-factor setups.
    if (raw === undefined || raw === '') values[key] = setting.default;
    else if (setting.type.accepts(raw)) values[key] = setting.type.parse(raw);
    else problems.push(`${setting.env} must be ${setting.type.rule}${explained(setting, raw)}`);
  }
  const config = values as FromTable;
  if (config.databaseReplicaUrls?.length > 0 && !config.databaseUrl) {
    problems.push('DATABASE_REPLICA_URLS needs DATABASE_URL (the built-in database has no replicas)');
  }
  if (config.httpHeadersTimeoutMs > config.httpRequestTimeoutMs) {
    problems.push(
      'HTTP_HEADERS_TIMEOUT_MS must be at most HTTP_REQUEST_TIMEOUT_MS (the headers are part of the request)',
    );
  }
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return {
    ...config,
    imageBaseUrl: config.imageBaseUrl ?? config.publicUrl ?? `http://localhost:${config.port}`,
    imageStoreDir: config.imageStoreDir ?? join(config.dataDir, 'images'),
    host: config.host ?? (config.databaseUrl ? '0.0.0.0' : '127.0.0.1'),
  };
}

function explained(setting: Setting<unknown>, raw: string): string {
  const detail = setting.type.explain?.(raw);
  return detail ? `: ${detail}` : '';
}

export const APP_CONFIG = Symbol('APP_CONFIG');
