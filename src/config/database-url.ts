// The Prisma CLI needs some DATABASE_URL to generate the client; this one means "no URL was given:
// use the built-in database". prisma.config.ts sets it, loadConfig() reads it as unset.
export const BUILT_IN_DATABASE_PLACEHOLDER = 'postgresql://built-in.invalid/lis';

export function configuredDatabaseUrl(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const url = env.DATABASE_URL;
  return url && url !== BUILT_IN_DATABASE_PLACEHOLDER ? url : undefined;
}
