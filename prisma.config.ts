import path from 'node:path';
import { defineConfig } from 'prisma/config';
import { PrismaPg } from '@prisma/adapter-pg';
import { BUILT_IN_DATABASE_PLACEHOLDER } from './src/config/database-url';

// schema.prisma reads env("DATABASE_URL"); `generate` needs a value even when the app will use its
// built-in database. The app treats this placeholder as unset.
process.env.DATABASE_URL ||= BUILT_IN_DATABASE_PLACEHOLDER;

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
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
