import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { AppConfig } from '../config/app-config';

// The built-in database as a first start leaves it (schema, world gazetteer, demo catalogue linked to its
// places; no API key), made once by `npm install` so that a first `npm start` copies it in a few seconds
// instead of loading ~160,000 rows into PGlite for a minute or more. A template belongs to one server
// build: one made by another build (older migrations, another gazetteer) is ignored, and the first start
// loads as it always did.

const ROOT = resolve(__dirname, '..', '..', '..');
// scripts/build.mjs writes the fingerprint of the server's sources here on every build.
const SERVER_BUILD_STAMP = join(ROOT, 'dist', '.build-server.sha256');
export const TEMPLATE_STAMP = 'server-build.sha256';
// Beside it, the same database with the schema alone: a CLI's first run on a new directory copies that
// instead of creating a database, which costs PGlite twice a CLI's usual memory.
export const SCHEMA_ONLY_PGDATA = 'schema-only-pgdata';

export function templateDir(config: Pick<AppConfig, 'builtInTemplate'>): string | undefined {
  return config.builtInTemplate === 'off' ? undefined : resolve(ROOT, config.builtInTemplate);
}

export function serverBuild(): string | undefined {
  return existsSync(SERVER_BUILD_STAMP) ? readFileSync(SERVER_BUILD_STAMP, 'utf8').trim() : undefined;
}

/** The template's pgdata (with demo data, or the schema only) when the current build made it; else undefined. */
export function freshTemplate(
  config: Pick<AppConfig, 'builtInTemplate'>,
  contents: 'demo' | 'schema' = 'demo',
): string | undefined {
  const dir = templateDir(config);
  const build = serverBuild();
  if (!dir || !build || !existsSync(join(dir, TEMPLATE_STAMP))) return undefined;
  if (readFileSync(join(dir, TEMPLATE_STAMP), 'utf8').trim() !== build) return undefined;
  const pgdata = join(dir, contents === 'demo' ? 'pgdata' : SCHEMA_ONLY_PGDATA);
  return existsSync(pgdata) ? pgdata : undefined;
}
