import 'reflect-metadata';
import { Migrator } from '../../src/database/migrator';
import { databaseUrl, withServer } from '../setup/test-database';
import { formatMisses, formatTable, measureRelevance } from './relevance-suite';

// `npm run relevance [-- --misses]`: builds the relevance catalogue in a throwaway database on
// TEST_DATABASE_URL's server, runs every query and prints top-1 / top-5 accuracy per category.
async function main(): Promise<number> {
  const name = `lis_relevance_${process.pid}_${Date.now()}`;
  await withServer((c) => c.query(`CREATE DATABASE "${name}"`));
  process.env.DATABASE_URL = databaseUrl(name);
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
    await withServer((c) => c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`));
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
