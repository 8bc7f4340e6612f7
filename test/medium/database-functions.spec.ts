import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { databaseFunctionFiles, FUNCTIONS_DIR } from '../sql/database-functions';

function committedFiles(dir = FUNCTIONS_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, committedFiles(path));
    else out[relative(FUNCTIONS_DIR, path)] = readFileSync(path, 'utf8');
  }
  return out;
}

// The database's functions and triggers as the migrations leave them are the committed files under
// src/database/functions/ (npm run sql:functions writes them): a migration that changes one without
// them, or a file edited without a migration, fails here.
describe('database functions as files', () => {
  it('src/database/functions/ holds exactly what the migrated database defines', async () => {
    const client = new Client({ connectionString: process.env.DATABASE_URL });
    await client.connect();
    try {
      const expected = await databaseFunctionFiles(client);
      const committed = committedFiles();
      expect(Object.keys(committed).sort()).toEqual(Object.keys(expected).sort());
      for (const [file, text] of Object.entries(expected))
        expect({ file, text: committed[file] }).toEqual({ file, text });
    } finally {
      await client.end();
    }
  });
});
