import type { Prisma } from '@prisma/client';
import type { Client } from 'pg';
import type { PrismaService } from './prisma.service';

// The committed SQL review (src/queries/*.sql, written by `npm run sql`, checked by a unit test) is
// made from declarations next to each method that runs SQL, as immich does it: `npm run sql` calls
// every declared method with its sample parameters on a recording database and writes down every
// statement the method sends, in order. test/unit/repository-sql.spec.ts fails when a method of a
// class that runs SQL has neither a declaration nor a @NoSql reason, so no statement goes unreviewed.

/** What a class's sample instance is made on: a database that records statements instead of running them. */
export interface RecordingDatabase {
  /** Records $queryRaw, rawQuery and Prisma's own queries; openBulkConnection gives recording clients. */
  prisma: PrismaService;
  /** A recording pg client (COPY included). */
  client(): Client;
  /** Rows for the next statements, one array per statement (sample instances that read before they work). */
  answer(...rows: Array<Array<Record<string, unknown>>>): void;
}

/** One sample call of a method, or one statement its builder makes for a case the sample call does not reach. */
export interface SqlExample {
  /** Shown after Class.method; tells a method's examples apart. */
  name?: string;
  /** The arguments (a thunk: evaluated only by `npm run sql`). */
  params?: () => unknown[];
  /** Rows the recording database answers, one array per statement in order (default: none). */
  answers?: Array<Array<Record<string, unknown>>>;
  /** Rows for the statements the sample instance sends while it is made, instead of its own (another kind of server). */
  subjectAnswers?: Array<Array<Record<string, unknown>>>;
  /** Instead of a call: the builder's statement for a case that needs other data (a variant of a plan). */
  sql?: () => Prisma.Sql | string;
}

export interface SqlDeclarations {
  /** How `npm run sql` makes an instance (on the recording database); absent on base classes. */
  subject?: (db: RecordingDatabase) => unknown;
  examples: Map<string, SqlExample[]>;
  /** Methods that send no SQL of their own, with the reason. */
  exempt: Map<string, string>;
}

const DECLARATIONS = new Map<object, SqlDeclarations>();

function declarations(target: object): SqlDeclarations {
  let found = DECLARATIONS.get(target);
  if (!found) DECLARATIONS.set(target, (found = { examples: new Map(), exempt: new Map() }));
  return found;
}

/** The method runs SQL: these calls (at least one) show it in src/queries/. */
export function GenerateSql(...examples: SqlExample[]): MethodDecorator {
  if (examples.length === 0) examples = [{}];
  return (prototype, method) => {
    declarations(prototype.constructor).examples.set(String(method), examples);
  };
}

/** The method sends no SQL itself (a helper, or it only calls declared methods): why. */
export function NoSql(reason: string): MethodDecorator {
  return (prototype, method) => {
    declarations(prototype.constructor).exempt.set(String(method), reason);
  };
}

/** How `npm run sql` makes an instance of the class on the recording database. */
export function SqlSubject(create: (db: RecordingDatabase) => unknown): ClassDecorator {
  return (target) => {
    declarations(target).subject = create;
  };
}

export function sqlDeclarations(target: object): SqlDeclarations | undefined {
  return DECLARATIONS.get(target);
}

/** What a PostgreSQL server answers an import session's first two statements (the server probe, the source lock). */
export const POSTGRES_SESSION = [[{ pglite: false }], [{ locked: true }]];
/** The same for the built-in database (PGlite). */
export const BUILT_IN_SESSION = [[{ pglite: true }], [{ locked: true }]];

// Sample values for declarations.
export const SAMPLE_UUID = '0f5ca291-e477-55f8-b961-57871f26c005';
export const SAMPLE_UUID_2 = '5b1f0c8e-2d3a-5e4f-9a8b-7c6d5e4f3a2b';
export const SAMPLE_SOURCE = 'sample-source';
