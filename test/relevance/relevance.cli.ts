import 'reflect-metadata';
import { Client } from 'pg';
import { Migrator } from '../../src/database/migrator';
import { formatMisses, formatTable, measureRelevance } from './relevance-suite';

// `npm run relevance [-- --misses]`: builds the relevance catalogue in a throwaway database on the
// server at TEST_DATABASE_URL (default postgresql://postgres@127.0.0.1:5432/postgres), runs every
// query and prints top-1 / top-5 accuracy per category.
const server = process.env.TEST_DATABASE_URL || 'postgresql://postgres@127.0.0.1:5432/postgres';

async function withServer(sql: string): Promise<void> {
  const client = new Client({ connectionString: server });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function main(): Promise<number> {
  const name = `lis_relevance_${process.pid}_${Date.now()}`;
  await withServer(`CREATE DATABASE "${name}"`);
  const url = new URL(server);
  url.pathname = `/${name}`;
  process.env.DATABASE_URL = url.toString();
  try {
    await new Migrator(process.env.DATABASE_URL).migrate();
    const started = Date.now();
    const { results, fixture } = await measureRelevance();
    console.log(`Relevance: ${fixture.queries.length} queries over ${fixture.records.length} records (${((Date.now() - started) / 1000).toFixed(1)} s)\n`);
    console.log(formatTable(results));
    if (process.argv.includes('--misses')) {
      const address = new Map(fixture.records.map((r) => [r.id, r.address]));
      console.log(`\n${formatMisses(results, (id) => (id === null ? 'nothing' : (address.get(id) ?? id)))}`);
    }
    return 0;
  } finally {
    await withServer(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
