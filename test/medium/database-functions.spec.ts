import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { Client } from 'pg';
import { databaseFunctionFiles, FUNCTIONS_DIR } from '../sql/database-functions';
import { databaseObjects, databaseSchema, SCHEMA_FILE, schemaObjectsOf } from '../sql/database-schema';
import { currentKind } from '../setup/test-database';

function committedFiles(dir = FUNCTIONS_DIR): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, committedFiles(path));
    else out[relative(FUNCTIONS_DIR, path)] = readFileSync(path, 'utf8');
  }
  return out;
}

async function withDatabase<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

// pg_dump 15 reads a PostgreSQL 15 server, not the built-in database (PostgreSQL 18): there, schema.sql
// is compared by the objects it names.
const serverOnly = currentKind() === 'server' ? it : it.skip;

// The database's functions and triggers as the migrations leave them are the committed files under
// src/database/functions/, and its whole schema is src/database/schema.sql (npm run sql:functions writes
// them): a migration that changes the schema without them, or a file edited without a migration, fails here.
describe('the database schema as files', () => {
  it('src/database/functions/ holds exactly what the migrated database defines', async () => {
    const expected = await withDatabase(databaseFunctionFiles);
    const committed = committedFiles();
    expect(Object.keys(committed).sort()).toEqual(Object.keys(expected).sort());
    for (const [file, text] of Object.entries(expected))
      expect({ file, text: committed[file] }).toEqual({ file, text });
  });

  serverOnly('src/database/schema.sql is the migrated database’s schema', async () => {
    // As text: a difference shows as a diff of the lines that differ.
    expect(readFileSync(SCHEMA_FILE, 'utf8')).toEqual(await databaseSchema(process.env.DATABASE_URL!));
  });

  it('src/database/schema.sql names the tables, indexes, types, functions and triggers of the migrated database', async () => {
    const named = schemaObjectsOf(readFileSync(SCHEMA_FILE, 'utf8'));
    expect(named).toEqual(
      expect.arrayContaining([
        'TABLE imagery',
        'TABLE coverage_cells_z16',
        'FUNCTION lis_coverage_cell_box',
        'TRIGGER imagery imagery_words_on_insert',
      ]),
    );
    expect(named).toEqual(await withDatabase(databaseObjects));
  });

  // A function's name found in a migration is findable from src/: under src/database/functions/, or it
  // is one a later migration dropped (DROP FUNCTION) and the database no longer has.
  it('every function a migration creates is in src/database/functions/ or dropped by a later migration', () => {
    const dir = join(__dirname, '..', '..', 'prisma', 'migrations');
    const live = new Set(Object.keys(committedFiles()).map((f) => f.replace(/\.sql$/, '')));
    const created = new Map<string, string>();
    const dropped = new Map<string, string>();
    for (const migration of readdirSync(dir).sort()) {
      const sql = readFileSync(join(dir, migration, 'migration.sql'), 'utf8');
      for (const m of sql.matchAll(/\bCREATE\s+(?:OR\s+REPLACE\s+)?FUNCTION\s+(?:"?public"?\.)?"?(\w+)"?/gi))
        created.set(m[1], migration);
      for (const m of sql.matchAll(/\bDROP\s+FUNCTION\s+(?:IF\s+EXISTS\s+)?(?:"?public"?\.)?"?(\w+)"?/gi))
        dropped.set(m[1], migration);
    }
    expect(created.size).toBeGreaterThan(30);
    const unaccounted = [...created].filter(([name, at]) => !live.has(name) && !((dropped.get(name) ?? '') > at));
    expect(unaccounted).toEqual([]);
  });
});
