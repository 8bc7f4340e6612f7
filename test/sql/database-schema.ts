import { execFile } from 'node:child_process';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import type { Client } from 'pg';

// The whole schema of a migrated database in one file, src/database/schema.sql: every table (with its
// partitions, columns, generated columns and constraints), index, type, function and trigger, as
// `pg_dump --schema-only` writes them, without owners and grants (the roles are the installation's) and
// without the lines that name pg_dump's version or carry its random \restrict key. It is a map to read;
// the migrations make a database. `npm run sql:functions` rewrites it with src/database/functions/, and
// test/medium/database-functions.spec.ts fails when a migrated database and the file differ.

export const SCHEMA_FILE = resolve(__dirname, '..', '..', 'src', 'database', 'schema.sql');

const HEADER =
  '-- The database schema as the migrations leave it, as pg_dump --schema-only writes it for PostgreSQL 15\n' +
  '-- (written by `npm run sql:functions`; change it in a migration).\n\n';

// Lines of pg_dump's that change from one run or one pg_dump release to the next.
const VARYING = [/^\\(un)?restrict /, /^-- Dumped (from database|by pg_dump) version /];

const run = promisify(execFile);

/** The schema of the database at `url`: the text of src/database/schema.sql. Needs pg_dump of the server's release. */
export async function databaseSchema(url: string): Promise<string> {
  let dump: string;
  try {
    ({ stdout: dump } = await run('pg_dump', ['--schema-only', '--no-owner', '--no-privileges', `--dbname=${url}`], {
      maxBuffer: 64 * 1024 * 1024,
    }));
  } catch (error) {
    const e = error as { code?: string; stderr?: string; message: string };
    if (e.code === 'ENOENT')
      throw new Error('src/database/schema.sql is written by pg_dump, which is not installed', { cause: error });
    throw new Error(
      `pg_dump failed (it needs a PostgreSQL server of its own release): ${e.stderr?.trim() || e.message}`,
      {
        cause: error,
      },
    );
  }
  const lines = dump.split('\n').filter((line) => !VARYING.some((v) => v.test(line)));
  return HEADER + lines.join('\n').replace(/\n{3,}/g, '\n\n');
}

/**
 * The tables, indexes, types, functions and triggers a schema text names (pg_dump's "-- Name: ...; Type: ..."
 * headings), as "TYPE name": what the built-in database, whose release pg_dump 15 cannot read, is compared by.
 */
export function schemaObjectsOf(schema: string): string[] {
  const objects = new Set<string>();
  for (const m of schema.matchAll(
    /^-- Name: ([^;(]+)(?:\([^;]*\))?; Type: (TABLE|INDEX|TYPE|FUNCTION|TRIGGER|VIEW|MATERIALIZED VIEW|SEQUENCE);/gm,
  ))
    objects.add(`${m[2]} ${m[1]}`);
  return [...objects].sort();
}

/** The same objects of the database `client` is connected to, from its catalogue (public schema, extensions' objects left out). */
export async function databaseObjects(client: Client): Promise<string[]> {
  const { rows } = await client.query<{ object: string }>(`
    WITH own AS (
      SELECT c.oid, c.relname, c.relkind FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = c.oid AND d.deptype = 'e'))
    SELECT CASE relkind WHEN 'r' THEN 'TABLE' WHEN 'p' THEN 'TABLE' WHEN 'v' THEN 'VIEW' WHEN 'm' THEN 'MATERIALIZED VIEW'
                        WHEN 'S' THEN 'SEQUENCE' ELSE 'INDEX' END || ' ' || relname AS object
    FROM own
    WHERE relkind IN ('r', 'p', 'v', 'm', 'S')
       OR (relkind IN ('i', 'I') AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = own.oid))
    UNION
    SELECT 'FUNCTION ' || p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace
    WHERE n.nspname = 'public' AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = p.oid AND d.deptype = 'e')
    UNION
    SELECT 'TRIGGER ' || c.relname || ' ' || t.tgname
    FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE NOT t.tgisinternal AND n.nspname = 'public'
    UNION
    SELECT 'TYPE ' || t.typname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace
    WHERE n.nspname = 'public' AND t.typtype IN ('c', 'e', 'd', 'r')
      AND (t.typrelid = 0 OR EXISTS (SELECT 1 FROM pg_class r WHERE r.oid = t.typrelid AND r.relkind = 'c'))
      AND NOT EXISTS (SELECT 1 FROM pg_depend d WHERE d.objid = t.oid AND d.deptype = 'e')`);
  return rows.map((r) => r.object).sort();
}
