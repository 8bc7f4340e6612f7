import { plainToInstance, Transform } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, IsUrl, Matches, Max, Min, validateSync } from 'class-validator';
import { configuredDatabaseUrl } from './database-url';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

// The environment as it arrives (strings), validated once at startup.
class EnvironmentVariables {
  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_URL must be a postgresql:// connection string' })
  DATABASE_URL?: string;

  @IsOptional()
  @IsString()
  DATA_DIR?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'PORT must be an integer between 0 and 65535' })
  @Min(0, { message: 'PORT must be an integer between 0 and 65535' })
  @Max(65535, { message: 'PORT must be an integer between 0 and 65535' })
  PORT?: number;

  @IsOptional()
  @IsString()
  HOST?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{24,200}$/, {
    message: 'BOOTSTRAP_API_KEY must be 24 to 200 printable ASCII characters without spaces',
  })
  BOOTSTRAP_API_KEY?: string;

  @IsOptional()
  @IsUrl(
    { protocols: ['http', 'https'], require_protocol: true, require_tld: false },
    { message: 'IMAGE_BASE_URL must be an absolute http(s) URL' },
  )
  IMAGE_BASE_URL?: string;

  @IsOptional()
  @IsIn(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
  LOG_LEVEL?: LogLevel;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DB_POOL_SIZE must be an integer between 1 and 100' })
  @Min(1, { message: 'DB_POOL_SIZE must be an integer between 1 and 100' })
  @Max(100, { message: 'DB_POOL_SIZE must be an integer between 1 and 100' })
  DB_POOL_SIZE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  @Min(100, { message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  @Max(600000, { message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  DB_STATEMENT_TIMEOUT_MS?: number;
}

export interface AppConfig {
  /** Unset: the app starts its built-in database in dataDir. */
  databaseUrl?: string;
  dataDir: string;
  port: number;
  host: string;
  bootstrapApiKey?: string;
  imageBaseUrl: string;
  logLevel: LogLevel;
  dbPoolSize: number;
  dbStatementTimeoutMs: number;
  /** How long a request may wait for a pooled connection (or a new one) before giving up. */
  dbConnectionTimeoutMs: number;
}

export class ConfigError extends Error {}

export function requireDatabaseUrl(config: AppConfig): string {
  if (!config.databaseUrl) throw new Error('No database URL: the built-in database was not started');
  return config.databaseUrl;
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  // Empty strings count as unset, as in most twelve-factor setups.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = plainToInstance(EnvironmentVariables, present);
  const errors = validateSync(parsed, { skipMissingProperties: false });
  if (errors.length > 0) {
    const lines = errors.flatMap((e) => Object.values(e.constraints ?? {}));
    throw new ConfigError(`Invalid configuration:\n  - ${lines.join('\n  - ')}`);
  }
  const port = parsed.PORT ?? 3000;
  return {
    databaseUrl: configuredDatabaseUrl(present),
    dataDir: parsed.DATA_DIR ?? './.data',
    port,
    host: parsed.HOST ?? '0.0.0.0',
    bootstrapApiKey: parsed.BOOTSTRAP_API_KEY,
    imageBaseUrl: (parsed.IMAGE_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    logLevel: parsed.LOG_LEVEL ?? 'info',
    dbPoolSize: parsed.DB_POOL_SIZE ?? 10,
    dbStatementTimeoutMs: parsed.DB_STATEMENT_TIMEOUT_MS ?? 2000,
    dbConnectionTimeoutMs: 2000,
  };
}

export const APP_CONFIG = Symbol('APP_CONFIG');
