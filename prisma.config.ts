import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { resolveDatabaseUrl } from './src/config/database-url';

// schema.prisma reads env("DATABASE_URL"); give the CLI the same default the app uses.
process.env.DATABASE_URL = resolveDatabaseUrl();

// The JS schema engine (engine: "js") keeps every CLI command offline: no native engine download.
export default defineConfig({
  experimental: { adapter: true },
  engine: 'js',
  schema: path.join('prisma', 'schema.prisma'),
  migrations: {
    path: path.join('prisma', 'migrations'),
    seed: 'ts-node --transpile-only prisma/seed.ts',
  },
  async adapter() {
    return new PrismaPg({ connectionString: resolveDatabaseUrl() });
  },
});
