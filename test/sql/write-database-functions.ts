// `npm run sql:functions`: rewrites src/database/functions/ from a freshly migrated throwaway database.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { runInThrowawayDatabase } from '../relevance/cli-database';
import { databaseFunctionFiles, FUNCTIONS_DIR } from './database-functions';

runInThrowawayDatabase(async () => {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const files = await databaseFunctionFiles(client);
    rmSync(FUNCTIONS_DIR, { recursive: true, force: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(FUNCTIONS_DIR, file)), { recursive: true });
      writeFileSync(join(FUNCTIONS_DIR, file), text);
    }
    console.log(`wrote ${Object.keys(files).length} files into src/database/functions/`);
  } finally {
    await client.end();
  }
});
