import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { EmbeddedDatabase } from '../../src/database/embedded-database';

// Which database the tests run on: TEST_DATABASE=server|embedded forces it; otherwise a server at
// TEST_DATABASE_URL (default 127.0.0.1:5432) when one answers, else the built-in PGlite database.
export type TestDatabaseKind = 'server' | 'embedded';
export const KIND_ENV = 'LIS_TEST_DATABASE_KIND';

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

export function serverUrl(): string {
  return process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export async function chooseKind(): Promise<TestDatabaseKind> {
  const forced = process.env.TEST_DATABASE;
  if (forced === 'server' || forced === 'embedded') return forced;
  if (forced) throw new Error(`TEST_DATABASE must be "server" or "embedded", not "${forced}"`);
  if (process.env.TEST_DATABASE_URL) return 'server';
  const client = new Client({ connectionString: serverUrl(), connectionTimeoutMillis: 1500 });
  try {
    await client.connect();
    return 'server';
  } catch {
    return 'embedded';
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function currentKind(): TestDatabaseKind {
  return (process.env[KIND_ENV] as TestDatabaseKind) ?? 'server';
}

// A new, empty database: a fresh database on the server, or a fresh PGlite data directory.
export async function createThrowawayDatabase(kind: TestDatabaseKind = currentKind()): Promise<ThrowawayDatabase> {
  const name = `lis_test_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  if (kind === 'embedded') {
    const dir = mkdtempSync(join(tmpdir(), 'lis-test-db-'));
    const db = await EmbeddedDatabase.start(dir);
    return {
      url: db.url,
      drop: async () => {
        await db.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

async function withServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
