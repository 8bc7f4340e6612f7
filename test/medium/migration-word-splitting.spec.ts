import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Migrator } from '../../src/database/migrator';
import { buildWorldGazetteer } from '../../src/places/gazetteer/world-gazetteer';
import { demoFeatures } from '../../src/seed/demo-dataset';
import { buildCatalogue } from '../relevance/relevance-catalogue';
import { createThrowawayDatabase, ThrowawayDatabase } from '../setup/test-database';

// The words_split_as_queries migration on a catalogue stored before it (addresses and places split by
// PostgreSQL's parser, their vocabulary counted, place term lists and ranked word lists built) leaves
// the database a fresh one loaded with the same data is: the same search columns, indexes and
// triggers, the same vocabulary and counts, the same place term lists; every ranked list entry still
// holds its term, and the next refresh rebuilds every list.
const MIGRATION = '20261206110000_words_split_as_queries';
const SOURCE = join(__dirname, '..', '..', 'prisma', 'migrations');
// Addresses whose words the migration changes: one loses a word (3.5km held km, now 3 and 5km).
const SPLIT = ['Herrengasse 35/1, 9490 Vaduz', 'Bahnhofplatz 4, 2502 Biel/Bienne', 'Route 3.5km, Kilometre Road'];
const GONE = ['Gone Street 12/2, Goneville', 'Vanished Road 1-3, Goneville'];

// A quarter of the demo addresses and of the world gazetteer (every name with punctuation in it), to
// keep the spec short.
const PUNCTUATED = /[^\p{L}\p{N}\s,]/u;
async function addresses(): Promise<string[]> {
  const out = new Set([...SPLIT, ...buildCatalogue().records.map((r) => r.address)]);
  let n = 0;
  for await (const { feature } of demoFeatures()) {
    const address = (feature as { properties: { address: string } }).properties.address;
    if (n++ % 4 === 0 || PUNCTUATED.test(address)) out.add(address);
  }
  return [...out];
}
const gazetteer = () => buildWorldGazetteer().filter((p, i) => i % 4 === 0 || PUNCTUATED.test(p.name));

// The same data on either schema: imagery (ids from the address), the world gazetteer's places, the place
// term lists; and records deleted again (their words' counts fall to 0, their rows stay).
async function load(c: Client, all: string[], places: ReturnType<typeof buildWorldGazetteer>, withGone: boolean) {
  const insert = (list: string[]) =>
    c.query(
      `INSERT INTO imagery (id, address, captured_at, heading, image_url, location)
       SELECT md5(a)::uuid, a, '2020-01-01', 0, 'a.jpg', ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326) FROM unnest($1::text[]) a`,
      [list],
    );
  await insert(all);
  if (withGone) {
    await insert(GONE);
    await c.query('DELETE FROM imagery WHERE address = ANY ($1)', [GONE]);
  }
  await c.query(
    `INSERT INTO places (id, kind, name, label, alt_names, postcode, region_code, country_code, location, importance, source, source_id)
     SELECT md5(p.id)::uuid, p.kind, p.name, p.label, p.alt, p.postcode, p.region, p.country,
            ST_SetSRID(ST_MakePoint(p.lon, p.lat), 4326), p.importance, 'test', p.id
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],
                 $9::float8[], $10::float8[], $11::float8[])
       AS p(id, kind, name, label, alt, postcode, region, country, lon, lat, importance)`,
    [
      places.map((p) => p.id),
      places.map((p) => p.kind),
      places.map((p) => p.name),
      places.map((p) => p.label),
      places.map((p) => p.altNames),
      places.map((p) => p.postcode),
      places.map((p) => p.regionCode),
      places.map((p) => p.countryCode),
      places.map((p) => p.lon),
      places.map((p) => p.lat),
      places.map((p) => p.importance),
    ],
  );
  await c.query('SELECT lis_refresh_place_terms(100, 20, true)');
}

// What must be equal: the schema of the two tables, the search columns, the vocabulary, the place terms.
async function state(c: Client) {
  const rows = async (sql: string) => (await c.query(sql)).rows;
  return {
    columns: await rows(`SELECT c.relname, a.attnum, a.attname, pg_get_expr(d.adbin, d.adrelid) AS expr
      FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum
      WHERE c.relname IN ('imagery', 'places') AND a.attnum > 0 AND NOT a.attisdropped ORDER BY 1, 2`),
    indexes: await rows(`SELECT tablename, indexname, indexdef FROM pg_indexes
      WHERE tablename IN ('imagery', 'places', 'imagery_words') ORDER BY 1, 2`),
    triggers: await rows(
      `SELECT tgname, pg_get_triggerdef(oid) AS def FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1`,
    ),
    imagery: await rows('SELECT id, address_tsv::text AS tsv FROM imagery ORDER BY id'),
    places: await rows('SELECT id, search_tsv::text AS tsv FROM places ORDER BY id'),
    words: await rows('SELECT word, docs FROM imagery_words ORDER BY word'),
    placeTerms: await rows('SELECT term, places FROM place_term_lists ORDER BY term'),
    placeRanks: await rows('SELECT term, place_id, importance FROM place_term_ranks ORDER BY term, place_id'),
  };
}

describe(`the ${MIGRATION} migration`, () => {
  let upgraded: ThrowawayDatabase;
  let fresh: ThrowawayDatabase;
  let dir: string;

  beforeAll(async () => {
    upgraded = await createThrowawayDatabase();
    fresh = await createThrowawayDatabase();
    dir = mkdtempSync(join(tmpdir(), 'lis-migrations-'));
  });
  afterAll(async () => {
    rmSync(dir, { recursive: true, force: true });
    await upgraded?.drop();
    await fresh?.drop();
  });

  it('leaves a stored catalogue as a fresh load of it: search columns, vocabulary, place terms', async () => {
    const all = new Migrator(upgraded.url).read().map((m) => m.name);
    const before = all.slice(0, all.indexOf(MIGRATION));
    expect(before.length).toBeGreaterThan(0);
    for (const name of before) cpSync(join(SOURCE, name), join(dir, name), { recursive: true });
    const data = await addresses();
    const places = gazetteer();
    const u = new Client({ connectionString: upgraded.url });
    const f = new Client({ connectionString: fresh.url });
    await u.connect();
    await f.connect();
    try {
      await new Migrator(upgraded.url, dir).migrate();
      await load(u, data, places, true);
      const {
        rows: [plan],
      } = await u.query('SELECT * FROM lis_plan_word_ranks(100, 100, 50)');
      await u.query('SELECT lis_build_word_ranks($1, $2, 50)', [plan.terms, plan.matches]);
      await u.query('SELECT lis_merge_word_ranks($1, $2, $3, $4, 50)', [
        plan.since_old,
        plan.since_next,
        plan.merge,
        plan.terms,
      ]);
      const old = await u.query<{ n: number }>("SELECT docs AS n FROM imagery_words WHERE word = 'km'");
      expect((await new Migrator(upgraded.url).migrate()).applied).toEqual(all.slice(before.length));

      await new Migrator(fresh.url).migrate();
      await load(f, data, places, false);
      const [after, expected] = [await state(u), await state(f)];
      for (const key of Object.keys(expected) as Array<keyof typeof expected>)
        expect({ key, value: after[key] }).toEqual({ key, value: expected[key] });
      expect(after.words.find((w) => w.word === 'bienne')).toBeDefined();
      expect(after.words.find((w) => w.word === 'km')?.docs ?? 0).toBeLessThan(old.rows[0].n);

      // Every ranked list entry holds its term; the next refresh rebuilds every list.
      const untrue =
        await u.query(`SELECT r.word, i.address FROM imagery_word_ranks r JOIN imagery i ON i.id = r.imagery_id
        WHERE NOT i.address_tsv @@ lis_term_tsquery(r.word)`);
      expect(untrue.rows).toEqual([]);
      expect((await u.query('SELECT count(*)::int AS n FROM imagery_word_ranks_state')).rows[0].n).toBe(0);
      const {
        rows: [next],
      } = await u.query('SELECT * FROM lis_plan_word_ranks(100, 100, 50)');
      expect(next.merge).toBe(false);
      expect(next.terms.length).toBeGreaterThan(0);
    } finally {
      await u.end();
      await f.end();
    }
  }, 600_000);
});
