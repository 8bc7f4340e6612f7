// A database that records statements instead of running them, for the SQL review (repository-sql.ts):
// Prisma's own queries through a driver adapter of its own (the client engine compiles them to SQL
// without a server), $queryRaw and rawQuery, and pg clients (COPY included). Each statement is answered
// with the next rows queued by answer(), or with none.
import type { SqlDriverAdapter, SqlQuery, SqlResultSet } from '@prisma/driver-adapter-utils';
import { Prisma, PrismaClient } from '@prisma/client';
import type { Client } from 'pg';
import { Readable, Writable } from 'node:stream';
import type { RecordingDatabase } from '../../src/database/generate-sql';
import type { PrismaService } from '../../src/database/prisma.service';

export interface Statement {
  text: string;
  values: unknown[];
}

type Row = Record<string, unknown>;

// The driver adapter's column types (ColumnTypeEnum of @prisma/driver-adapter-utils) the answers use.
const ColumnTypeEnum = { Int32: 0, Double: 3, Boolean: 5, Text: 7, DateTime: 10 } as const;

function columnType(v: unknown): number {
  if (typeof v === 'boolean') return ColumnTypeEnum.Boolean;
  if (typeof v === 'number') return Number.isInteger(v) ? ColumnTypeEnum.Int32 : ColumnTypeEnum.Double;
  if (v instanceof Date) return ColumnTypeEnum.DateTime;
  return ColumnTypeEnum.Text;
}

function resultSet(rows: Row[]): SqlResultSet {
  const columnNames = rows.length > 0 ? Object.keys(rows[0]) : [];
  return {
    columnNames,
    columnTypes: columnNames.map((c) =>
      columnType(rows.find((r) => r[c] !== null)?.[c]),
    ) as SqlResultSet['columnTypes'],
    rows: rows.map((r) => columnNames.map((c) => (r[c] instanceof Date ? (r[c] as Date).toISOString() : r[c]))),
  };
}

export class Recorder implements RecordingDatabase {
  readonly statements: Statement[] = [];
  readonly prisma: PrismaService;
  private answers: Row[][] = [];

  /** subjectAnswers: what the sample instance's own statements get, in place of what its factory queues. */
  constructor(private readonly subjectAnswers?: Row[][]) {
    const queryable = {
      provider: 'postgres' as const,
      adapterName: 'recording',
      queryRaw: async (q: SqlQuery) => resultSet(this.record(q.sql, q.args)),
      executeRaw: async (q: SqlQuery) => this.record(q.sql, q.args).length,
    };
    const adapter: SqlDriverAdapter = {
      ...queryable,
      executeScript: async () => undefined,
      dispose: async () => undefined,
      // As @prisma/adapter-pg: BEGIN is the adapter's, COMMIT and ROLLBACK are sent by Prisma.
      startTransaction: async () => {
        await queryable.executeRaw({ sql: 'BEGIN', args: [], argTypes: [] });
        return {
          ...queryable,
          options: { usePhantomQuery: false },
          commit: async () => undefined,
          rollback: async () => undefined,
        };
      },
    };
    const client = new PrismaClient({
      adapter: { provider: 'postgres', adapterName: 'recording', connect: async () => adapter },
    });
    this.prisma = Object.assign(client, {
      rawQuery: async (sql: Prisma.Sql) => this.record(sql.text, sql.values),
      bestEffortQuery: async (sql: Prisma.Sql) => this.record(sql.text, sql.values),
      openBulkConnection: async () => this.client(),
      // As PrismaService.bulkQuery: a statement on a bulk connection of its own.
      bulkQuery: async (_name: string, text: string, values: unknown[]) => this.record(text, values),
    }) as unknown as PrismaService;
  }

  answer(...rows: Row[][]): void {
    this.answers = [...(this.subjectAnswers ?? rows)];
  }

  /** Starts a new transcript: forgets what was recorded and queues these answers. */
  reset(answers: Row[][] = []): void {
    this.statements.length = 0;
    this.answers = [...answers];
  }

  client(): Client {
    const fake = {
      query: (query: unknown, values?: unknown[]) => {
        if (
          typeof query === 'object' &&
          query !== null &&
          typeof (query as { submit?: unknown }).submit === 'function'
        ) {
          // pg-copy-streams: a stream to write to (FROM STDIN) or read from (TO STDOUT).
          const text = (query as { text: string }).text;
          this.record(text, []);
          return /\bTO\s+STDOUT\b/i.test(text)
            ? Readable.from([])
            : new Writable({ write: (_chunk, _encoding, done) => done() });
        }
        const { text, values: given } =
          typeof query === 'string' ? { text: query, values } : (query as { text: string; values?: unknown[] });
        const rows = this.record(text, given ?? []);
        return Promise.resolve({ rows, rowCount: rows.length });
      },
      connect: async () => undefined,
      end: async () => undefined,
      on: () => fake,
    };
    return fake as unknown as Client;
  }

  private record(text: string, values: unknown[]): Row[] {
    this.statements.push({ text, values });
    return this.answers.shift() ?? [];
  }
}
