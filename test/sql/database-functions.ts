import { resolve } from 'node:path';
import type { Client } from 'pg';

// The database's own functions and triggers as files under src/database/functions/, one per function
// (overloads together) and one per trigger, read from a migrated database with pg_get_functiondef
// and pg_get_triggerdef: the rules they hold (vocabulary upkeep, the ranked word lists, lis_normalize,
// lis_rank_score, lis_plus_code) are findable from src/ by name. Migrations stay what changes them;
// `npm run sql:functions` rewrites the files and test/medium/database-functions.spec.ts fails when a
// migration and the files disagree. Functions of extensions (PostGIS, pg_trgm, ...) are theirs.

export const FUNCTIONS_DIR = resolve(__dirname, '..', '..', 'src', 'database', 'functions');

const HEADER = (what: string) =>
  `-- ${what}, as the migrations leave it (written by \`npm run sql:functions\`; change it in a migration).\n`;

/** File name (relative to FUNCTIONS_DIR) -> its text. */
export async function databaseFunctionFiles(client: Client): Promise<Record<string, string>> {
  const files: Record<string, string> = {};
  const functions = await client.query<{ name: string; def: string }>(`
    SELECT p.proname AS name, pg_get_functiondef(p.oid) AS def
    FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public'
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
    ORDER BY p.proname, pg_get_function_identity_arguments(p.oid)`);
  for (const f of functions.rows) {
    const file = `${f.name}.sql`;
    files[file] = `${files[file] ?? HEADER(`Function ${f.name}`)}\n${f.def.trim()};\n`;
  }
  const triggers = await client.query<{ table: string; name: string; def: string }>(`
    SELECT c.relname AS table, t.tgname AS name, pg_get_triggerdef(t.oid, true) AS def
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT t.tgisinternal AND n.nspname = 'public'
    ORDER BY c.relname, t.tgname`);
  for (const t of triggers.rows) {
    files[`triggers/${t.table}.${t.name}.sql`] = `${HEADER(`Trigger ${t.name} on ${t.table}`)}\n${t.def.trim()};\n`;
  }
  return files;
}
