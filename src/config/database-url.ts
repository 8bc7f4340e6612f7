export const DEFAULT_DATABASE_URL = 'postgresql://postgres@127.0.0.1:5432/postgres';

// The CLI (prisma.config.ts) and the app resolve the connection string the same way.
export function resolveDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  return env.DATABASE_URL || DEFAULT_DATABASE_URL;
}
