import { Prisma, PrismaClient } from '@prisma/client';
import { PLACE_FOUND_CAP } from '../../src/search/sql/place-candidates.sql';
import { PlaceMatchingRepository } from '../../src/search/place-matching/place-matching.repository';
import { PlaceCandidate } from '../../src/search/place-matching/place-ranking';
import { buildTextQuery } from '../../src/search/query/text-query';
import { SCORE_CAP, SearchRepository } from '../../src/search/search.repository';
import { PINNED_RECORDS_CAP } from '../../src/search/paging/search-limits';
import { PrismaService } from '../../src/database/prisma.service';
import { dropPlacePlans, PLACES, placePlanTools, PlacePlanDb, seedPlacePlans } from '../helpers/place-plans';
import { explainAnalyzed, searchPlan } from '../helpers/query-plans';

// The statements of search that find named places, EXPLAINed on 100,000
// places and 100,000 imagery records linked to them (test/helpers/place-plans.ts).
describe('place search query plans: named places', () => {
  let prisma: PrismaClient;
  let service: PrismaService;
  let repo: SearchRepository;
  let rare: string; // a locality name a few places share
  let london: PlacePlanDb['london']; // the most important London's region
  const { page, plan, noSeqScan, named, textSearch, executedScans } = placePlanTools(() => ({
    prisma,
    service,
    repo,
    rare,
    london,
  }));

  beforeAll(async () => {
    ({ prisma, service, repo, rare, london } = await seedPlacePlans());
  }, 300_000); // 200,000 rows through their indexes: seconds on a server, longer on a busy one

  afterAll(() => dropPlacePlans({ prisma, service }));

  it('holds at least 100,000 places of every kind and 100,000 imagery records linked to them', async () => {
    const [counts] = await prisma.$queryRawUnsafe<Array<Record<string, number>>>(`
      SELECT (SELECT count(*)::int FROM places) AS places, (SELECT count(DISTINCT kind)::int FROM places) AS kinds,
             (SELECT count(*)::int FROM imagery) AS imagery, (SELECT count(*)::int FROM imagery WHERE locality_id IS NOT NULL) AS linked,
             (SELECT count(*)::int FROM imagery WHERE address_origin <> 'own') AS recovered`);
    expect(counts).toEqual({ places: PLACES, kinds: 7, imagery: 100_000, linked: 98_000, recovered: 38_000 });
  });

  it('place candidates by full text use the GIN index: a shared name, a rare one, prefixes, in a region or not', async () => {
    for (const q of ['London', rare, 'San Fr', 'Spr', 'Karolinstrasse 12']) {
      for (const region of [null, london.countryCode, london.regionCode]) {
        const text = await plan(PlaceMatchingRepository.placeCandidatesSql(buildTextQuery(q)!, region));
        // Places of other kinds from the partial index, which holds the region codes too: in a region,
        // the region is an index condition of the same scan. Addresses named by a house number (when
        // too few others match) from the whole one, for a query with a digit only; for such a rare
        // phrase in a region the planner may read the other kinds from the whole index as well.
        if (/\d/.test(q)) {
          expect(text).toMatch(/Bitmap Index Scan on places_search_tsv_idx/);
          if (region === null) expect(text).toMatch(/Bitmap Index Scan on places_search_tsv_named_idx/);
        } else {
          const scan = text.match(/Bitmap Index Scan on places_search_tsv_named_idx[^\n]*\n[^\n]*Index Cond: ([^\n]*)/);
          expect(scan).not.toBeNull();
          if (region !== null) {
            expect(scan![1]).toContain(`${region.includes('-') ? 'region_code' : 'country_code'} = '${region}'`);
          }
          expect(text).not.toMatch(/places_search_tsv_idx/);
        }
        noSeqScan(text);
      }
    }
    // The queries find what they name.
    expect((await named(buildTextQuery('London')!, null))[0]).toMatchObject({ name: 'London', kind: 'locality' });
    expect((await named(buildTextQuery(rare)!, null)).length).toBeGreaterThanOrEqual(3);
    expect((await named(buildTextQuery('San Fr')!, null))[0].name).toBe('San Francisco');
  });

  it('a word in a tenth of the places, or one letter: places are read once, and only up to the cap', async () => {
    // Either a bitmap of the GIN index or a scan in table order that stops at PLACE_FOUND_CAP (the
    // planner's choice when one row in ten matches); never the whole table joined back by id.
    for (const q of ['Street', 'K']) {
      const sql = PlaceMatchingRepository.placeCandidatesSql(buildTextQuery(q)!, null);
      const text = await plan(sql);
      // Other kinds (no digit in the query: no addresses), then the columns of the 200 kept, by primary key.
      // (and, for a word with other spellings such as "st", those from the index too).
      const spelt = buildTextQuery(q)!.groups[0].length > 1;
      expect(text.match(/ on places p(_\d+)?\b/g)).toHaveLength(spelt ? 3 : 2);
      expect(text).toMatch(/Index Scan using places_pkey on places p\b/);
      expect(text).toMatch(
        new RegExp(
          `Limit .*rows=${PLACE_FOUND_CAP} [\\s\\S]*(Seq Scan on places|Bitmap Index Scan on places_search_tsv(_named)?_idx)`,
        ),
      );
      // Thousands of streets and towns match: one scan of places ran.
      const ran = await executedScans(sql);
      expect(ran.filter((s) => /^(Seq Scan|Bitmap Heap Scan|Index Scan) places$/.test(s))).toHaveLength(spelt ? 2 : 1);
    }
  });

  it('addresses are place candidates when few places of other kinds match', async () => {
    const [address] = await prisma.$queryRawUnsafe<Array<{ label: string }>>(
      `SELECT p.label FROM places p WHERE p.kind = 'address' ORDER BY p.id LIMIT 1`,
    );
    const found = await service.rawQuery<PlaceCandidate>(
      PlaceMatchingRepository.placeCandidatesSql(buildTextQuery(address.label)!, null),
    );
    expect(found.map((p) => p.label)).toContain(address.label);
  });

  it('a query without a digit does not read addresses named by street and number, but finds one with a name of its own', async () => {
    const [address] = await prisma.$queryRawUnsafe<
      Array<{ id: string; street: string; locality: string; altNames: string }>
    >(
      `SELECT p.id::text, p.street, p.locality, p.alt_names AS "altNames" FROM places p
       WHERE p.kind = 'address' AND p.street !~ '[0-9]' AND p.locality !~ '[0-9]' ORDER BY p.id LIMIT 1`,
    );
    // As imported addresses are (the generated ones carry their country's names).
    await prisma.$executeRawUnsafe(`UPDATE places SET alt_names = '' WHERE id = $1::uuid`, address.id);
    await prisma.$executeRawUnsafe(
      `INSERT INTO places (id, kind, name, housenumber, street, locality, label, location, source, source_id)
       VALUES ('00000000-0000-4000-8000-00000000c0a1', 'address', 'Rosecottage Farm', '3', $1, $2,
               'Rosecottage Farm, 3 ' || $1 || ', ' || $2, ST_SetSRID(ST_MakePoint(9.5, 47.1), 4326), 'test', 'rosecottage')`,
      address.street,
      address.locality,
    );
    try {
      const candidates = async (q: string) =>
        (
          await service.rawQuery<PlaceCandidate>(PlaceMatchingRepository.placeCandidatesSql(buildTextQuery(q)!, null))
        ).map((p) => p.id);
      // Its street and town without a number: the numbered address cannot be what the query names.
      expect(await candidates(`${address.street} ${address.locality}`)).not.toContain(address.id);
      expect(await candidates('Rosecottage Farm')).toContain('00000000-0000-4000-8000-00000000c0a1');
    } finally {
      await prisma.$executeRawUnsafe(`DELETE FROM places WHERE source = 'test'`);
      await prisma.$executeRawUnsafe(
        `UPDATE places SET alt_names = $2 WHERE id = $1::uuid`,
        address.id,
        address.altNames,
      );
    }
  });

  it('split: the index looks up every word but the last, the whole query filters, and finds the same places', async () => {
    // A street of two words: its first word with the start of its second, as one types it.
    const streets = await prisma.$queryRawUnsafe<Array<{ name: string }>>(
      `SELECT name FROM places WHERE kind = 'street' AND name ~ '^[A-Za-z]{4,} [A-Za-z]{4,}$' ORDER BY id LIMIT 3`,
    );
    expect(streets).toHaveLength(3);
    for (const { name } of streets) {
      const [first, second] = name.split(' ');
      const query = buildTextQuery(`${first} ${second.slice(0, 3)}`)!;
      const split = PlaceMatchingRepository.placeCandidatesSql(query, null, true);
      const text = await plan(split);
      const conds = [...text.matchAll(/Index Cond: \((?:[^\n]*)search_tsv @@ ([^\n]*)/g)].map((m) => m[1]);
      expect(conds.length).toBeGreaterThan(0);
      for (const cond of conds) expect(cond).not.toContain(':*');
      noSeqScan(text);
      const ids = async (sql: Prisma.Sql) => (await service.rawQuery<PlaceCandidate>(sql)).map((p) => p.id);
      const found = await ids(split);
      expect(found.length).toBeGreaterThan(0);
      expect(found).toEqual(await ids(PlaceMatchingRepository.placeCandidatesSql(query, null)));
    }
  });

  // The places' trigram index holds the region codes too: in a region, the region is a condition of the
  // same scan, not a filter on every place anywhere that shares enough trigrams with the query.
  const trigramScan = (text: string, index: string) =>
    text.match(new RegExp(`Bitmap Index Scan on ${index}[^\\n]*\\n[^\\n]*Index Cond: ([^\\n]*)`));
  const regionColumn = (region: string) => (region.includes('-') ? 'region_code' : 'country_code');

  it('misspelt place names use the trigram GIN index of the name, in a region with its codes', async () => {
    for (const q of ['Lodnon', 'Sna Francisco', rare.slice(0, -1) + 'x']) {
      for (const region of [null, london.countryCode, london.regionCode]) {
        const text = await plan(PlaceMatchingRepository.similarPlacesSql(q, region));
        const scan = trigramScan(text, 'places_name_norm_trgm_idx');
        expect(scan).not.toBeNull();
        if (region !== null) expect(scan![1]).toContain(`${regionColumn(region)} = '${region}'`);
        noSeqScan(text);
      }
    }
  });

  it('the places of a page of records are read by primary key', async () => {
    const rows = await prisma.$queryRawUnsafe<Array<{ id: string; place: string }>>(
      `SELECT id::text, coalesce(place_id, locality_id)::text AS place FROM imagery WHERE locality_id IS NOT NULL ORDER BY id LIMIT 100`,
    );
    const text = await plan(
      PlaceMatchingRepository.recordPlacesSql(
        rows.map((r) => r.id),
        rows.map((r) => r.place),
      ),
    );
    expect(text).toMatch(/Index Scan using imagery_pkey on imagery/);
    expect(text).toMatch(/Index Scan using places_pkey on places/);
    noSeqScan(text);
  });

  it('named places without filters: their records come from the link indexes, other matches from the tsvector index', async () => {
    for (const q of ['London', rare, 'San Fr']) {
      const { sql, pins } = await textSearch(q);
      expect(pins.ids.length).toBeGreaterThan(0);
      const text = await plan(sql);
      expect(text).toMatch(/Bitmap Index Scan on imagery_place_id_idx/);
      expect(text).toMatch(/Bitmap Index Scan on imagery_locality_id_idx/);
      expect(text).toMatch(/Bitmap Index Scan on imagery_address_tsv_idx/);
      // A page past what the pinned records can fill reads the other matches (the head), and not the
      // tail (matches past the first SCORE_CAP).
      const past = await executedScans((await textSearch(q, {}, { limit: 10, offset: PINNED_RECORDS_CAP })).sql);
      expect(past).toEqual(
        expect.arrayContaining([
          'Bitmap Index Scan imagery_place_id_idx',
          'Bitmap Index Scan imagery_locality_id_idx',
          'Bitmap Index Scan imagery_address_tsv_idx',
        ]),
      );
      expect(past.filter((s) => s.startsWith('Seq Scan'))).toEqual([]);
    }
  });

  it('named places whose records fill the page: the other matches are not read, and their number is estimated', async () => {
    const { sql, pins } = await textSearch('London');
    // A named town's records nearest its centre: a nearest-first probe of the geography index.
    expect(pins.centre).toBeTruthy();
    const ran = await executedScans(sql);
    expect(ran).toContain('Index Scan imagery_location_geog_idx');
    expect(ran).toEqual(
      expect.arrayContaining(['Bitmap Index Scan imagery_place_id_idx', 'Bitmap Index Scan imagery_locality_id_idx']),
    );
    expect(ran).not.toContain('Bitmap Index Scan imagery_address_tsv_idx');
    const query = buildTextQuery('London')!;
    const first = await repo.searchFullText(query, page, undefined, pins);
    expect(first.rows).toHaveLength(page.limit);
    expect(first.totalExact).toBe(false);
    // Past the pinned records the matches are read and counted; walking pages across that boundary
    // lists every record once, in the order one long page has. Pinned records score 30 or more.
    const all = await repo.searchFullText(query, { limit: PINNED_RECORDS_CAP + 30, offset: 0 }, undefined, pins);
    const pinned = all.rows.filter((r) => r.score >= 30).length;
    expect(pinned).toBeGreaterThanOrEqual(page.limit);
    expect(all.rows.length).toBeGreaterThan(pinned);
    expect(all.totalExact).toBe(true);
    const walked: string[] = [];
    for (let offset = 0; offset < all.rows.length; offset += page.limit) {
      const p = await repo.searchFullText(query, { limit: page.limit, offset }, undefined, pins);
      expect(p.totalExact).toBe(offset + page.limit > pinned);
      walked.push(...p.rows.map((r) => r.id));
    }
    expect(walked).toEqual(all.rows.map((r) => r.id));
    expect(first.rows.map((r) => r.id)).toEqual(walked.slice(0, page.limit));
  });

  it('named places, a page past the ranked matches: head, pins and tail by index', async () => {
    // "London" has about 1,300 text matches: the page past SCORE_CAP + the pinned records is read
    // from the tail, whose scan has a constant OFFSET (SCORE_CAP), so the planner keeps the GIN
    // bitmap instead of reading all of imagery.
    const { sql } = await textSearch('London', {}, { limit: 10, offset: SCORE_CAP + 250 });
    const ran = await executedScans(sql);
    expect(ran).toEqual(
      expect.arrayContaining([
        'Bitmap Index Scan imagery_place_id_idx',
        'Bitmap Index Scan imagery_locality_id_idx',
        'Bitmap Index Scan imagery_address_tsv_idx',
      ]),
    );
    expect(ran.filter((s) => s.startsWith('Seq Scan'))).toEqual([]);
    const page = await repo.searchFullText(
      buildTextQuery('London')!,
      { limit: 10, offset: SCORE_CAP + 250 },
      undefined,
      (await textSearch('London')).pins,
    );
    expect(page.rows).toHaveLength(10);
  });

  // The full-text index holds the region and country codes: one GIN scan finds the words' matches
  // within the region, with no bitmap of every record of the region beside it.
  it('named places in a region: the text index finds the matches within the region', async () => {
    for (const [region, column] of [
      [london.countryCode, 'country_code'],
      [london.regionCode, 'region_code'],
    ]) {
      const text = await plan((await textSearch('London', { region })).sql);
      const scan = text.match(/Bitmap Index Scan on imagery_address_tsv_idx[^\n]*\n[^\n]*Index Cond: ([^\n]*)/);
      expect(scan?.[1]).toContain(`${column} = '${region}'`);
      expect(text).not.toMatch(/imagery_country_code_idx|imagery_region_code_idx/);
      noSeqScan(text);
    }
  });

  // A page the pinned records fill in a region (no estimate there): the other matches are counted by a
  // scan of their ids, not numbered as the head (a page past the pinned records numbers them); same total.
  it('named places in a region whose records fill the page: the other matches are counted, not numbered', async () => {
    const [{ region }] = await prisma.$queryRawUnsafe<Array<{ region: string }>>(
      `SELECT region_code AS region FROM imagery WHERE address_tsv @@ 'london' AND region_code IS NOT NULL GROUP BY 1 ORDER BY count(*) DESC LIMIT 1`,
    );
    const body = { query: 'London', region };
    const { sql, pins } = await textSearch('London', body);
    const nodes = await explainAnalyzed(prisma, sql);
    const at = nodes.findIndex((n) => n.executed && n.on === 'imagery_address_tsv_idx');
    expect(nodes.filter((n) => n.executed && n.on === 'imagery_address_tsv_idx')).toHaveLength(1);
    expect(nodes[at - 1]).toMatchObject({ type: 'Bitmap Heap Scan', on: 'imagery' });
    expect(nodes[at - 1].above).not.toContain('WindowAgg');
    const query = buildTextQuery('London')!;
    const first = await repo.searchFullText(query, page, searchPlan(body), pins);
    const all = await repo.searchFullText(query, { limit: PINNED_RECORDS_CAP + 30, offset: 0 }, searchPlan(body), pins);
    // A page longer than the pinned records can be (PINNED_RECORDS_CAP) reads the head: every match.
    expect(all.rows).toHaveLength(all.total);
    expect(first.total).toBe(all.total);
    expect(first.rows.map((r) => r.id)).toEqual(all.rows.slice(0, page.limit).map((r) => r.id));
  });

  it('named places with a circle, and sorted by date: an index finds the candidates', async () => {
    const [at] = await prisma.$queryRawUnsafe<Array<{ lat: number; lon: number }>>(
      `SELECT ST_Y(location) AS lat, ST_X(location) AS lon FROM places WHERE kind = 'locality' AND name = 'London' ORDER BY importance DESC LIMIT 1`,
    );
    const withCircle = await plan(
      (await textSearch('London', { near: { lat: at.lat, lon: at.lon, radius_m: 5_000 } })).sql,
    );
    expect(withCircle).toMatch(/imagery_location_idx|imagery_address_tsv_idx/);
    noSeqScan(withCircle);
    for (const sort of ['newest', 'oldest'] as const) {
      const text = await plan((await textSearch('London', { sort })).sql);
      noSeqScan(text);
    }
  });
});
