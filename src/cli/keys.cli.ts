import { parseArgs } from 'node:util';
import { ApiKeyService } from '../api-key/api-key.service';
import { runCli, UsageError } from './cli-context';

const USAGE = `usage:
  npm run keys -- create --name <name>     create a key and print it once
  npm run keys -- list                     list keys (never prints secrets)
  npm run keys -- revoke <id-or-prefix>    revoke a key at once`;

void runCli(async (ctx) => {
  const { positionals, values } = parseArgs({ allowPositionals: true, options: { name: { type: 'string' } } });
  const keys = ctx.get(ApiKeyService);
  const [command, arg] = positionals;
  switch (command) {
    case 'create': {
      const name = values.name?.trim();
      if (!name) throw new UsageError(`create needs --name\n${USAGE}`);
      const { key, record } = await keys.create(name);
      console.log(`Created API key ${record.id} (${record.prefix}…) named "${record.name}".`);
      console.log('Store it now; it cannot be shown again:');
      console.log(key);
      return;
    }
    case 'list': {
      const all = await keys.list();
      if (all.length === 0) return console.log('No API keys.');
      console.table(
        all.map((k) => ({
          id: k.id,
          prefix: `${k.prefix}…`,
          name: k.name,
          created: k.createdAt.toISOString(),
          status: k.revokedAt ? `revoked ${k.revokedAt.toISOString()}` : 'active',
        })),
      );
      return;
    }
    case 'revoke': {
      if (!arg) throw new UsageError(`revoke needs an id or prefix\n${USAGE}`);
      const key = await keys.revoke(arg);
      console.log(`Revoked ${key.id} (${key.prefix}…) "${key.name}".`);
      return;
    }
    default:
      throw new UsageError(USAGE);
  }
});
