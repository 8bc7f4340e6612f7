import { Client } from 'pg';

export const TEST_DB_ENV = 'LIS_TEST_DATABASE';

// The server the tests may create throwaway databases on.
export function serverUrl(): string {
  return process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';
}

export function databaseUrl(name: string): string {
  const url = new URL(serverUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function withServer<T>(fn: (client: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: serverUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}
