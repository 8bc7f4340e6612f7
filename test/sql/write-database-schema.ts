// `npm run sql:functions`: rewrites src/database/schema.sql and src/database/functions/ from a freshly
// migrated throwaway database (a PostgreSQL server: pg_dump reads its own release only).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { Client } from 'pg';
import { runInThrowawayDatabase } from '../relevance/cli-database';
import { databaseFunctionFiles, FUNCTIONS_DIR } from './database-functions';
import { databaseSchema, SCHEMA_FILE } from './database-schema';

runInThrowawayDatabase(async () => {
  const schema = await databaseSchema(process.env.DATABASE_URL!);
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    const files = await databaseFunctionFiles(client);
    writeFileSync(SCHEMA_FILE, schema);
    rmSync(FUNCTIONS_DIR, { recursive: true, force: true });
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(FUNCTIONS_DIR, file)), { recursive: true });
      writeFileSync(join(FUNCTIONS_DIR, file), text);
    }
    console.log(`wrote src/database/schema.sql and ${Object.keys(files).length} files into src/database/functions/`);
  } finally {
    await client.end();
  }
});
