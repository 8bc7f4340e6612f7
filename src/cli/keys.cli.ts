import { ApiKeyService } from '../api-key/api-key.service';
import { parseOptions } from './cli-arguments';
import { runCli, UsageError } from './cli-context';

const USAGE = `usage:
  npm run keys -- create --name <name> [--rate-limit <n>]   create a key and print it once
  npm run keys -- list [--json]                             list keys (never prints secrets); --json: one JSON array
  npm run keys -- revoke <id-or-prefix>                     revoke a key (running servers: on their next request)
  npm run keys -- set-rate-limit <id-or-prefix> <n|default> requests per minute for one key (the same)
  (without a key's own limit, RATE_LIMIT_PER_MINUTE applies; default 600)`;

// "default" (or "none") clears the key's own limit; anything else must be a whole number.
function parseRateLimit(value: string | undefined): number | null | undefined {
  if (value === undefined) return undefined;
  if (value === 'default' || value === 'none') return null;
  if (!/^\d+$/.test(value))
    throw new UsageError(`rate limit must be a whole number of requests per minute or "default", got "${value}"`);
  return Number(value);
}

type KeysCommand =
  | { command: 'create'; name: string; rateLimit: number | null }
  | { command: 'list'; json: boolean }
  | { command: 'revoke'; key: string }
  | { command: 'set-rate-limit'; key: string; rateLimit: number | null };

function parseKeysCommand(): KeysCommand {
  const { positionals, values } = parseOptions(
    {
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        'rate-limit': { type: 'string' },
        json: { type: 'boolean', default: false },
      },
    },
    USAGE,
  );
  if (values.json && positionals[0] !== 'list') throw new UsageError(`--json is for list\n${USAGE}`);
  const [command, arg, arg2] = positionals;
  switch (command) {
    case 'create': {
      const name = values.name?.trim();
      if (!name) throw new UsageError(`create needs --name\n${USAGE}`);
      return { command, name, rateLimit: parseRateLimit(values['rate-limit']) ?? null };
    }
    case 'list':
      return { command, json: values.json };
    case 'revoke':
      if (!arg) throw new UsageError(`revoke needs an id or prefix\n${USAGE}`);
      return { command, key: arg };
    case 'set-rate-limit': {
      const rateLimit = parseRateLimit(arg2);
      if (!arg || rateLimit === undefined)
        throw new UsageError(`set-rate-limit needs an id or prefix and a limit\n${USAGE}`);
      return { command, key: arg, rateLimit };
    }
    default:
      throw new UsageError(USAGE);
  }
}

void runCli(parseKeysCommand, async (ctx, asked, config) => {
  const keys = ctx.get(ApiKeyService);
  switch (asked.command) {
    case 'create': {
      const { key, record } = await keys.create(asked.name, asked.rateLimit);
      const limit = record.rateLimit ? `, ${record.rateLimit} requests per minute` : '';
      console.log(`Created API key ${record.id} (${record.prefix}…) named "${record.name}"${limit}.`);
      console.log('Store it now; it cannot be shown again:');
      console.log(key);
      return;
    }
    case 'list': {
      const all = await keys.list();
      if (asked.json) {
        // For scripts (jq): each key's fields by name, dates in ISO 8601; rateLimit null is the default's.
        const listed = all.map((k) => ({
          id: k.id,
          prefix: k.prefix,
          name: k.name,
          createdAt: k.createdAt.toISOString(),
          revokedAt: k.revokedAt?.toISOString() ?? null,
          rateLimit: k.rateLimit,
        }));
        return console.log(JSON.stringify(listed, null, 2));
      }
      if (all.length === 0) return console.log('No API keys.');
      console.table(
        all.map((k) => ({
          id: k.id,
          prefix: `${k.prefix}…`,
          name: k.name,
          created: k.createdAt.toISOString(),
          status: k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active',
          'per minute': k.rateLimit ?? `${config.rateLimitPerMinute} (default)`,
        })),
      );
      return;
    }
    case 'revoke': {
      const key = await keys.revoke(asked.key);
      console.log(`Revoked ${key.id} (${key.prefix}…) "${key.name}"; running servers refuse it on their next request.`);
      return;
    }
    case 'set-rate-limit': {
      const key = await keys.setRateLimit(asked.key, asked.rateLimit);
      const shown = key.rateLimit === null ? `the default (${config.rateLimitPerMinute})` : String(key.rateLimit);
      console.log(
        `Rate limit of ${key.id} (${key.prefix}…) "${key.name}" is now ${shown} requests per minute; running servers apply it on their next request.`,
      );
    }
  }
});
