import 'reflect-metadata';
import { Migrator } from '../../src/database/migrator';
import { chooseKind, createThrowawayDatabase } from '../setup/test-database';
import { formatMisses, formatTable, measureRelevance } from './relevance-suite';

// `npm run relevance [-- --misses]`: builds the relevance catalogue in a throwaway database (the
// server at TEST_DATABASE_URL when one answers, else the built-in database, as for the tests), runs
// every query and prints top-1 / top-5 accuracy per category.
async function main(): Promise<number> {
  const db = await createThrowawayDatabase(await chooseKind());
  process.env.DATABASE_URL = db.url;
  try {
    await new Migrator(process.env.DATABASE_URL).migrate();
    const started = Date.now();
    const { results, fixture } = await measureRelevance();
    console.log(
      `Relevance: ${fixture.queries.length} queries over ${fixture.records.length} records (${((Date.now() - started) / 1000).toFixed(1)} s)\n`,
    );
    console.log(formatTable(results));
    if (process.argv.includes('--misses')) {
      const address = new Map(fixture.records.map((r) => [r.id, r.address]));
      console.log(`\n${formatMisses(results, (id) => (id === null ? 'nothing' : (address.get(id) ?? id)))}`);
    }
    return 0;
  } finally {
    await db.drop();
  }
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
