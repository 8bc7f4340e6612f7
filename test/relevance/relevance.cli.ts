import { runInThrowawayDatabase } from './cli-database';
import { formatMisses, formatTable, measureRelevance } from './relevance-suite';

// `npm run relevance [-- --misses]`: builds the relevance catalogue in a throwaway database, runs
// every query and prints top-1 / top-5 accuracy per category.
runInThrowawayDatabase(async () => {
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
});
