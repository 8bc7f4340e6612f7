import { createHash, randomUUID } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Client } from 'pg';
import { CitusCluster, citusLayout } from './citus-layout';

// Same advisory lock key as `prisma migrate`, so the two never run at once.
const MIGRATION_LOCK_KEY = 72707369;

export interface MigrationResult {
  applied: string[];
  alreadyApplied: number;
  /** Set when the server is a Citus coordinator (the citus profile): its tables' form there; absent on plain PostgreSQL. */
  citus?: CitusCluster;
}

interface MigrationFile {
  name: string;
  sql: string;
  checksum: string;
}

// Applies prisma/migrations/*/migration.sql and records them in _prisma_migrations exactly as
// `prisma migrate deploy` does (its JS schema engine cannot run this step offline, prisma/orm#27403).
export class Migrator {
  constructor(
    private readonly databaseUrl: string,
    private readonly dir: string = findMigrationsDir(),
  ) {}

  // A connection the server ends while held emits 'error'; unheard, that would end the process. The
  // statement in flight fails with the cause, which is what the caller sees.
  private client(): Client {
    const client = new Client({ connectionString: this.databaseUrl, application_name: 'lis-migrator' });
    client.on('error', () => undefined);
    return client;
  }

  async migrate(): Promise<MigrationResult> {
    const client = this.client();
    await client.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      await client.query(PRISMA_MIGRATIONS_TABLE);
      const rows = await client.query<{
        migration_name: string;
        checksum: string;
        finished_at: Date | null;
        rolled_back_at: Date | null;
      }>('SELECT migration_name, checksum, finished_at, rolled_back_at FROM _prisma_migrations');
      const failed = rows.rows.find((r) => !r.finished_at && !r.rolled_back_at);
      if (failed) {
        throw new Error(
          `Migration ${failed.migration_name} failed earlier and was not resolved; fix the database, then mark it rolled back ` +
            `(prisma migrate resolve --rolled-back ${failed.migration_name})`,
        );
      }
      const done = new Set(rows.rows.filter((r) => r.finished_at).map((r) => r.migration_name));
      const applied: string[] = [];
      for (const m of this.read()) {
        if (done.has(m.name)) continue;
        await this.apply(client, m);
        applied.push(m.name);
      }
      const citus = await citusLayout(client);
      return { applied, alreadyApplied: done.size, ...(citus && { citus }) };
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]).catch(() => undefined);
      await client.end();
    }
  }

  // Migrations not yet applied (without taking the lock: for messages only).
  async pending(): Promise<string[]> {
    const client = this.client();
    await client.connect();
    try {
      const exists = await client.query("SELECT to_regclass('_prisma_migrations') IS NOT NULL AS present");
      const done = exists.rows[0].present
        ? new Set(
            (
              await client.query('SELECT migration_name FROM _prisma_migrations WHERE finished_at IS NOT NULL')
            ).rows.map((r) => r.migration_name),
          )
        : new Set<string>();
      return this.read()
        .map((m) => m.name)
        .filter((n) => !done.has(n));
    } finally {
      await client.end();
    }
  }

  read(): MigrationFile[] {
    return readdirSync(this.dir, { withFileTypes: true })
      .filter((d) => d.isDirectory() && existsSync(join(this.dir, d.name, 'migration.sql')))
      .map((d) => d.name)
      .sort()
      .map((name) => {
        const sql = readFileSync(join(this.dir, name, 'migration.sql'), 'utf8');
        return { name, sql, checksum: createHash('sha256').update(sql).digest('hex') };
      });
  }

  private async apply(client: Client, m: MigrationFile): Promise<void> {
    const id = randomUUID();
    // Each migration and its bookkeeping row commit together or not at all.
    await client.query('BEGIN');
    try {
      await client.query(
        'INSERT INTO _prisma_migrations (id, checksum, migration_name, started_at, applied_steps_count) VALUES ($1, $2, $3, now(), 0)',
        [id, m.checksum, m.name],
      );
      await client.query(m.sql);
      await client.query('UPDATE _prisma_migrations SET finished_at = now(), applied_steps_count = 1 WHERE id = $1', [
        id,
      ]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK');
      throw new Error(`Migration ${m.name} failed: ${(error as Error).message}`, { cause: error });
    }
  }
}

function findMigrationsDir(): string {
  // Compiled code runs from dist/src/database, sources (tests, ts-node) from src/database.
  const candidates = [
    resolve(__dirname, '..', '..', '..', 'prisma', 'migrations'),
    resolve(__dirname, '..', '..', 'prisma', 'migrations'),
  ];
  const found = candidates.find((c) => existsSync(c));
  if (!found) throw new Error(`prisma/migrations not found (looked in ${candidates.join(', ')})`);
  return found;
}

const PRISMA_MIGRATIONS_TABLE = `
CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
  "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
  "checksum"            VARCHAR(64) NOT NULL,
  "finished_at"         TIMESTAMPTZ,
  "migration_name"      VARCHAR(255) NOT NULL,
  "logs"                TEXT,
  "rolled_back_at"      TIMESTAMPTZ,
  "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
  "applied_steps_count" INTEGER NOT NULL DEFAULT 0
)`;
