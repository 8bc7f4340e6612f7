import { runInThrowawayDatabase } from './cli-database';
import { formatMisses, formatTable } from './relevance-suite';
import { measureOsmRelevance, truthCounts } from './osm-suite';

// `npm run relevance:osm [-- --misses] [-- --sample N] [-- --keep]`: the OpenStreetMap relevance suite in a
// throwaway database (as `npm run relevance`). Every query by default; --sample N asks a seeded N per
// category, as the medium test does (150).
const at = process.argv.indexOf('--sample');
const perCategory = at > 0 ? Number(process.argv[at + 1]) : Infinity;
if (!(perCategory > 0)) {
  console.error('usage: npm run relevance:osm [-- --misses] [-- --sample N] [-- --keep], N a positive number');
  process.exit(2);
}

runInThrowawayDatabase(async () => {
  const started = Date.now();
  const m = await measureOsmRelevance(perCategory);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  console.log(`OpenStreetMap relevance: ${m.queries.length} queries, ${m.records} imagery records (${seconds} s)`);
  console.log(`ground truth: ${JSON.stringify(truthCounts(m.truth), null, 1).replace(/\n\s*/g, ' ')}\n`);
  const results = [...m.reverse, ...m.forward];
  console.log(formatTable(results));
  if (process.argv.includes('--misses')) console.log(`\n${formatMisses(results, m.describe)}`);
});
