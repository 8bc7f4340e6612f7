import { Setting, integer, matching } from './setting-types';

// Per-key limits (api_keys.rate_limit, same CHECK in the database) share this bound.
export const RATE_LIMIT_MAX = 100_000;

// The limits on clients: rate limits, lockouts, held answers, and slow requests. Rows of SETTINGS (settings.ts).
export const LIMIT_SETTINGS = {
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
} satisfies Record<string, Setting<unknown>>;
