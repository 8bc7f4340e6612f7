import { plainToInstance, Transform } from 'class-transformer';
import {
  IsIn,
  IsInt,
  IsOptional,
  IsString,
  IsUrl,
  Matches,
  Max,
  Min,
  Validate,
  ValidateBy,
  ValidatorConstraint,
  ValidatorConstraintInterface,
  validateSync,
} from 'class-validator';
import { configuredDatabaseUrl } from './database-url';
import { isTrustProxy, parseTrustProxy, TRUST_PROXY_MESSAGE, TrustProxy } from './trust-proxy';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export const NODE_ENVS = ['production', 'development', 'test'] as const;
export type NodeEnv = (typeof NODE_ENVS)[number];

// An origin is scheme://host[:port], nothing after it; CORS compares origins exactly.
const ORIGIN = /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/;
const CORS_MESSAGE = 'CORS_ORIGINS must be * or a comma-separated list of origins like https://app.example.com';

const toInt = ({ value }: { value: unknown }) =>
  typeof value === 'string' && /^-?\d+$/.test(value.trim()) ? Number(value.trim()) : value;

// Per-key limits (api_keys.rate_limit, same CHECK in the database) share this bound.
export const RATE_LIMIT_MAX = 100_000;

@ValidatorConstraint({ name: 'corsOrigins' })
class CorsOriginsConstraint implements ValidatorConstraintInterface {
  validate(value: unknown): boolean {
    return typeof value === 'string' && (value === '*' || value.split(',').every((o) => ORIGIN.test(o.trim())));
  }
}

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
  @IsIn(['true', 'false'], { message: 'DB_PREPARED_STATEMENTS must be true or false' })
  DB_PREPARED_STATEMENTS?: 'true' | 'false';

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  @Min(100, { message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  @Max(600000, { message: 'DB_STATEMENT_TIMEOUT_MS must be an integer between 100 and 600000' })
  DB_STATEMENT_TIMEOUT_MS?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'DB_CONNECT_TIMEOUT_MS must be an integer between 100 and 60000' })
  @Min(100, { message: 'DB_CONNECT_TIMEOUT_MS must be an integer between 100 and 60000' })
  @Max(60000, { message: 'DB_CONNECT_TIMEOUT_MS must be an integer between 100 and 60000' })
  DB_CONNECT_TIMEOUT_MS?: number;

  @IsOptional()
  @Matches(/^postgres(ql)?:\/\/\S+$/, { message: 'DATABASE_READONLY_URL must be a postgresql:// connection string' })
  DATABASE_READONLY_URL?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: `RATE_LIMIT_PER_MINUTE must be an integer between 1 and ${RATE_LIMIT_MAX}` })
  @Min(1, { message: `RATE_LIMIT_PER_MINUTE must be an integer between 1 and ${RATE_LIMIT_MAX}` })
  @Max(RATE_LIMIT_MAX, { message: `RATE_LIMIT_PER_MINUTE must be an integer between 1 and ${RATE_LIMIT_MAX}` })
  RATE_LIMIT_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'AUTH_FAILURES_PER_MINUTE must be an integer between 1 and 10000' })
  @Min(1, { message: 'AUTH_FAILURES_PER_MINUTE must be an integer between 1 and 10000' })
  @Max(10000, { message: 'AUTH_FAILURES_PER_MINUTE must be an integer between 1 and 10000' })
  AUTH_FAILURES_PER_MINUTE?: number;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'API_KEY_CACHE_SECONDS must be an integer between 0 and 300' })
  @Min(0, { message: 'API_KEY_CACHE_SECONDS must be an integer between 0 and 300' })
  @Max(300, { message: 'API_KEY_CACHE_SECONDS must be an integer between 0 and 300' })
  API_KEY_CACHE_SECONDS?: number;

  @IsOptional()
  @Matches(/^rediss?:\/\/\S+$/, { message: 'REDIS_URL must be a redis:// or rediss:// URL' })
  REDIS_URL?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{1,64}$/, { message: 'RATE_LIMIT_REDIS_PREFIX must be 1 to 64 printable ASCII characters' })
  RATE_LIMIT_REDIS_PREFIX?: string;

  @IsOptional()
  @ValidateBy({ name: 'trustProxy', validator: { validate: isTrustProxy, defaultMessage: () => TRUST_PROXY_MESSAGE } })
  TRUST_PROXY?: string;

  @IsOptional()
  @IsIn(NODE_ENVS, { message: `NODE_ENV must be one of ${NODE_ENVS.join(', ')}` })
  NODE_ENV?: NodeEnv;

  @IsOptional()
  @Validate(CorsOriginsConstraint, { message: CORS_MESSAGE })
  CORS_ORIGINS?: string;

  @IsOptional()
  @Matches(/^[\x21-\x7e]{16,200}$/, { message: 'METRICS_TOKEN must be 16 to 200 printable ASCII characters without spaces' })
  METRICS_TOKEN?: string;

  @IsOptional()
  @Transform(toInt)
  @IsInt({ message: 'SHUTDOWN_TIMEOUT_MS must be an integer between 0 and 600000' })
  @Min(0, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer between 0 and 600000' })
  @Max(600000, { message: 'SHUTDOWN_TIMEOUT_MS must be an integer between 0 and 600000' })
  SHUTDOWN_TIMEOUT_MS?: number;
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
  /** Named statements on the request path; off behind a transaction-mode pooler (PgBouncer) and on the built-in database. */
  dbPreparedStatements: boolean;
  dbStatementTimeoutMs: number;
  /** How long a request may wait for a new or a free pooled connection before giving up. */
  dbConnectTimeoutMs: number;
  /** Read-only role for request-path queries; unset means DATABASE_URL serves everything. */
  databaseReadonlyUrl?: string;
  rateLimitPerMinute: number;
  authFailuresPerMinute: number;
  /** How long a running server trusts a key it has checked; 0 checks the database on every request. */
  apiKeyCacheSeconds: number;
  redisUrl?: string;
  rateLimitRedisPrefix: string;
  trustProxy: TrustProxy;
  nodeEnv: NodeEnv;
  /** Origins allowed by CORS; empty means CORS is off (browsers on other origins are refused). */
  corsOrigins: string[] | '*';
  metricsToken?: string;
  shutdownTimeoutMs: number;
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
    // One line per distinct message: several rules of one variable share a message.
    const lines = [...new Set(errors.flatMap((e) => Object.values(e.constraints ?? {})))];
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
    dbPreparedStatements: parsed.DB_PREPARED_STATEMENTS !== 'false',
    dbStatementTimeoutMs: parsed.DB_STATEMENT_TIMEOUT_MS ?? 2000,
    dbConnectTimeoutMs: parsed.DB_CONNECT_TIMEOUT_MS ?? 2000,
    databaseReadonlyUrl: parsed.DATABASE_READONLY_URL,
    rateLimitPerMinute: parsed.RATE_LIMIT_PER_MINUTE ?? 600,
    authFailuresPerMinute: parsed.AUTH_FAILURES_PER_MINUTE ?? 20,
    apiKeyCacheSeconds: parsed.API_KEY_CACHE_SECONDS ?? 10,
    redisUrl: parsed.REDIS_URL,
    rateLimitRedisPrefix: parsed.RATE_LIMIT_REDIS_PREFIX ?? 'lis:rate-limit:',
    trustProxy: parseTrustProxy(parsed.TRUST_PROXY),
    nodeEnv: parsed.NODE_ENV ?? 'production',
    corsOrigins: parsed.CORS_ORIGINS === '*' ? '*' : splitList(parsed.CORS_ORIGINS ?? ''),
    metricsToken: parsed.METRICS_TOKEN,
    shutdownTimeoutMs: parsed.SHUTDOWN_TIMEOUT_MS ?? 10_000,
  };
}

function splitList(value: string): string[] {
  return value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v.length > 0);
}

export const APP_CONFIG = Symbol('APP_CONFIG');
