import 'reflect-metadata';
import { Migrator } from '../../src/database/migrator';
import { chooseKind, createThrowawayDatabase } from '../setup/test-database';
import { formatMisses, formatTable } from './relevance-suite';
import { measureOsmRelevance, truthCounts } from './osm-suite';

// `npm run relevance:osm [-- --misses] [-- --sample N]`: the OpenStreetMap relevance suite in a
// throwaway database (as `npm run relevance`). Every query by default; --sample N asks a seeded N per
// category, as the medium test does (150).
async function main(): Promise<number> {
  const at = process.argv.indexOf('--sample');
  const perCategory = at > 0 ? Number(process.argv[at + 1]) : Infinity;
  if (!(perCategory > 0)) throw new Error('--sample needs a positive number');
  const db = await createThrowawayDatabase(await chooseKind());
  process.env.DATABASE_URL = db.url;
  try {
    await new Migrator(process.env.DATABASE_URL).migrate();
    const started = Date.now();
    const m = await measureOsmRelevance(perCategory);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    console.log(`OpenStreetMap relevance: ${m.queries.length} queries, ${m.records} imagery records (${seconds} s)`);
    console.log(`ground truth: ${JSON.stringify(truthCounts(m.truth), null, 1).replace(/\n\s*/g, ' ')}\n`);
    console.log(formatTable([...m.reverse, ...m.forward]));
    if (process.argv.includes('--misses')) console.log(`\n${formatMisses([...m.reverse, ...m.forward], m.describe)}`);
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
