import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { sqlDeclarations } from '../../src/database/generate-sql';
import { QUERIES_DIR, queryFile, repositoryQueries, sqlClasses, sqlFiles, sqlMethods } from '../sql/repository-sql';

const ROOT = resolve(__dirname, '..', '..');

// Files that send SQL but are not repositories, and why they are not in the review.
const NOT_REVIEWED: Record<string, string> = {
  'src/database/prisma.service.ts':
    'runs what the repositories build (rawQuery, bestEffortQuery) and opens their bulk connections',
  'src/database/generate-sql.ts': 'the declarations themselves (names the calls in comments)',
  'src/database/migrator.ts':
    "applies prisma/migrations/*/migration.sql (reviewed as those files) with `prisma migrate deploy`'s bookkeeping and lock",
  'src/database/read-router.ts':
    'sends what the repositories build to the primary or a replica; a best-effort one inside BEGIN READ ONLY / SET LOCAL statement_timeout / COMMIT',
  'src/database/replica-health.ts':
    'the replica lag check: one constant statement (REPLICA_LAG_SQL), written out in that file',
  'src/database/embedded-database.ts':
    "the built-in database's own upkeep before a template is handed out: CHECKPOINT and the WAL segment in use (constant statements, written out in that file)",
  'src/database/citus-layout.ts':
    'the Citus layout the migrator applies after the migrations on a coordinator with workers: constant catalogue reads and create_reference_table, written out in that file',
  'src/database/notification-listener.ts':
    'the listening connection: LISTEN on a constant channel name, written out in that file (its probes are sent by the owner, a repository)',
  'src/database/readonly-role.ts':
    'role DDL for `npm run db:create-readonly-role` (names are quoted: DDL takes no parameters)',
};

// What sends SQL: Prisma's raw and model calls, the request path's rawQuery, pg's query, new connections.
const RUNS_SQL = [
  /\$(queryRaw|executeRaw|queryRawUnsafe|executeRawUnsafe|transaction)\b/,
  /\b(rawQuery|bestEffortQuery)\b/,
  /\.query(<[^>]*>)?\(/,
  /\bprisma\.[a-z]\w*\.(find|create|update|upsert|delete|count|aggregate|groupBy)/,
  /\bnew (Client|Pool)\(/,
  /\bopenBulkConnection\b/,
];

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory()
      ? sourceFiles(join(dir, d.name))
      : d.name.endsWith('.ts')
        ? [relative(ROOT, join(dir, d.name))]
        : [],
  );
}

// Every statement is committed as SQL for review (src/queries/, written by `npm run sql` from the
// @GenerateSql declarations next to each method); a change to a query must come with the regenerated
// file, so it shows in the diff, and a new method that runs SQL must come with a declaration.
describe('committed repository SQL', () => {
  const classes = sqlClasses();
  // Base classes are reviewed through the subclasses that the files export.
  const bases = new Set(classes.map((c) => Object.getPrototypeOf(c)));

  it('finds the classes that run SQL', () => {
    expect(classes.map((c) => c.name)).toEqual(
      expect.arrayContaining(['ApiKeyRepository', 'ImageryImportSession', 'PlaceImportSession', 'SearchRepository']),
    );
  });

  it('src/queries/ holds exactly the generated files, as generated (run npm run sql after changing a query)', async () => {
    const generated = await repositoryQueries();
    const committed = Object.fromEntries(
      readdirSync(QUERIES_DIR)
        .filter((f) => f.endsWith('.sql'))
        .map((f) => [f.slice(0, -4), readFileSync(join(QUERIES_DIR, f), 'utf8')]),
    );
    expect(Object.keys(committed).sort()).toEqual(Object.keys(generated).sort());
    for (const [file, text] of Object.entries(generated))
      expect({ file, text: committed[file] }).toEqual({ file, text });
  });

  it('generates the same files twice (deterministic)', async () => {
    expect(await repositoryQueries()).toEqual(await repositoryQueries());
  });

  it.each(classes.map((c) => [c.name, c] as const))('%s: every method has @GenerateSql or @NoSql', (_name, cls) => {
    const undeclared = sqlMethods(cls)
      .filter((m) => !m.examples && !m.exempt)
      .map((m) => m.method);
    expect({ class: cls.name, undeclared }).toEqual({ class: cls.name, undeclared: [] });
    if (!bases.has(cls))
      expect({ class: cls.name, subject: typeof sqlDeclarations(cls)?.subject }).toEqual({
        class: cls.name,
        subject: 'function',
      });
    expect(queryFile(cls)).toMatch(/^[a-z-]+\.[a-z]+$/);
  });

  it('no other src file sends SQL (or it says why it is not reviewed)', () => {
    const reviewed = new Set(sqlFiles());
    const unreviewed = sourceFiles(join(ROOT, 'src'))
      .filter((f) => !reviewed.has(f) && !(f in NOT_REVIEWED))
      .filter((f) => RUNS_SQL.some((re) => re.test(readFileSync(join(ROOT, f), 'utf8'))));
    expect(unreviewed).toEqual([]);
  });
});
