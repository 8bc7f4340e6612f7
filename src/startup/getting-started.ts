import { INestApplicationContext } from '@nestjs/common';
import { ApiKeyService } from '../api-key/api-key.service';
import { CommandHints } from '../config/app-config';
import { ImageryRepository } from '../imagery/imagery.repository';

export const FIRST_RUN_KEY_NAME = 'first-run';

// The commands the startup log suggests, as a user of this deployment types them.
const COMMANDS: Record<CommandHints, { keys: string; seed: string; import: string }> = {
  npm: {
    keys: 'npm run keys -- create --name my-app',
    seed: 'npx prisma db seed',
    import: 'npm run import -- records.geojson --source my-catalogue',
  },
  compose: {
    keys: 'docker compose exec api node dist/src/cli/keys.cli.js create --name my-app',
    seed: 'docker compose --profile seed run --rm seed',
    import:
      'docker compose exec -T api node dist/src/cli/import.cli.js - --format geojson --source my-catalogue < records.geojson',
  },
};

// No BOOTSTRAP_API_KEY and no key at all yet: the first start creates one, so a new user can search
// at once. Only this start can show it: the database keeps its hash, like every key's.
export function createFirstRunKey(ctx: INestApplicationContext): Promise<string | undefined> {
  return ctx.get(ApiKeyService).createFirstKey(FIRST_RUN_KEY_NAME);
}

export function tryItLines(key: string, baseUrl: string): string[] {
  return [
    `API key: ${key}`,
    'Try:',
    `  curl -s ${baseUrl}/search -H 'content-type: application/json' -H 'x-api-key: ${key}' -d '{"query": "Beverly Hills", "limit": 2}'`,
  ];
}

export function firstRunKeyMessage(key: string, baseUrl: string, hints: CommandHints): string {
  return [
    `Created the first API key ("${FIRST_RUN_KEY_NAME}"). It is shown only now: store it (the database keeps only its hash).`,
    ...tryItLines(key, baseUrl),
    `More keys:  ${COMMANDS[hints].keys}`,
  ].join('\n');
}

// Said at every start while the catalogue is empty, so a search returning nothing is explained.
export async function emptyCatalogueMessage(
  ctx: INestApplicationContext,
  hints: CommandHints,
): Promise<string | undefined> {
  if (!(await ctx.get(ImageryRepository).isEmpty())) return undefined;
  return [
    'The imagery catalogue is empty.',
    `  Demo data (66,229 records at real places):  ${COMMANDS[hints].seed}`,
    `  Your own catalogue (GeoJSON, GeoJSON lines or CSV; see docs/data.md, Import):`,
    `    ${COMMANDS[hints].import}`,
  ].join('\n');
}
