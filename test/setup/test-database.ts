import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { Client } from 'pg';

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

// A new, empty database: a fresh database on the server, or a fresh PGlite data directory. Its name
// starts with LIS_TEST_DATABASE_PREFIX (default lis_test), for runs that share a server.
export async function createThrowawayDatabase(kind: TestDatabaseKind = currentKind()): Promise<ThrowawayDatabase> {
  const prefix = process.env.LIS_TEST_DATABASE_PREFIX || 'lis_test';
  if (!/^[a-z_][a-z0-9_]*$/.test(prefix))
    throw new Error(`LIS_TEST_DATABASE_PREFIX must be a lower-case name, not "${prefix}"`);
  const name = `${prefix}_${process.pid}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;
  if (kind === 'embedded') return serveBuiltInDatabase();
  await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined),
  };
}

// PGlite cannot load inside Jest's module sandbox (it needs dynamic import), so each built-in test
// database runs in its own process, started through the project's own `serve-database` command.
async function serveBuiltInDatabase(): Promise<ThrowawayDatabase> {
  const dir = mkdtempSync(join(tmpdir(), 'lis-test-db-'));
  const cli = resolve(__dirname, '..', '..', 'dist', 'src', 'cli', 'serve-database.cli.js');
  const child = spawn(process.execPath, [cli], {
    env: { ...process.env, DATA_DIR: dir },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((r) => child.on('exit', () => r()));
  const url = await new Promise<string>((resolveUrl, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /postgresql:\/\/\S+/.exec(out);
      if (match) resolveUrl(match[0]);
    });
    child.on('exit', (code) => reject(new Error(`serve-database exited with ${code}`)));
  });
  return {
    url,
    drop: async () => {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
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
