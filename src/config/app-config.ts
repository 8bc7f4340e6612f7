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

// IMAGE_BASE_URL falls back to PUBLIC_URL, then to this server (the one default that depends on others).
export type AppConfig = Omit<FromTable, 'imageBaseUrl'> & {
  imageBaseUrl: string;
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
  if (problems.length > 0) throw new ConfigError(`Invalid configuration:\n  - ${problems.join('\n  - ')}`);
  return { ...config, imageBaseUrl: config.imageBaseUrl ?? config.publicUrl ?? `http://localhost:${config.port}` };
}

function explained(setting: Setting<unknown>, raw: string): string {
  const detail = setting.type.explain?.(raw);
  return detail ? `: ${detail}` : '';
}

export const APP_CONFIG = Symbol('APP_CONFIG');
