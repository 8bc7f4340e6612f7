import { Prisma } from '@prisma/client';
import { TestingModule } from '@nestjs/testing';
import { PrismaService } from '../../src/database/prisma.service';
import { SCORE_CAP, SearchRepository } from '../../src/search/search.repository';
import { LOCALITY_RECORDS_READ, PINNED_RECORDS_CAP } from '../../src/search/paging/search-limits';
import { placePlanTools } from '../helpers/place-plans';
import { insertPlaces, linkRecord, resetPlaces, withClient } from '../helpers/places';
import { LOCALITIES } from '../helpers/place-search-gazetteer';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// A place with more records than are pinned (PINNED_RECORDS_CAP): the pages its pinned records fill
// are answered from them alone (the total estimated), the later ones from every match (counted).
// Walking the pages must still list every match once.
describe('search that knows places: paging past the pinned records', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<{
    data: Array<{ id: string; score?: number }>;
    pageTotal: number;
    total?: number;
    total_exact?: boolean;
  }>;
  const LONDON_RECORDS = PINNED_RECORDS_CAP + 40;
  const OTHERS = 60; // addresses that hold the word "London" but are no London's imagery (in its region)
  const londonIds = new Set<string>();
  const SF_RECORDS = PINNED_RECORDS_CAP + 20;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(LOCALITIES);
    const london = LOCALITIES.find((p) => p.key === 'london-gb')!;
    const records = Array.from({ length: LONDON_RECORDS }, (_, n) =>
      // Addresses of different lengths, so their text scores differ.
      feature(`${n + 1} ${'Baker '.repeat(1 + (n % 4))}Street, London`, {}, [london.lon + n * 1e-5, london.lat]),
    );
    const others = Array.from({ length: OTHERS }, (_, n) =>
      feature(`${n + 1} London Road, Croydon`, {}, [london.lon, london.lat - 0.1 - n * 1e-5]),
    );
    records.forEach((r) => londonIds.add(r.id));
    expect((await importFixture([...records, ...others])).rejected).toBe(0);
    await linkRecord(
      records.map((r) => r.id),
      { locality: 'london-gb' },
    );
    await linkRecord(
      others.map((r) => r.id),
      { locality: 'croydon' },
    );
    // A town whose first records (in its index) name a village linked to it, its own name only after;
    // all of them farther than CENTRE_RADIUS_M from its point, whose records are pinned whatever they are.
    const munich = LOCALITIES.find((p) => p.key === 'munich')!;
    const village = Array.from({ length: LOCALITY_RECORDS_READ }, (_, n) =>
      feature(`${n + 1} Dorfstrasse, Dorfen`, {}, [munich.lon + 0.01 + n * 1e-5, munich.lat]),
    );
    const town = Array.from({ length: 20 }, (_, n) =>
      feature(`${n + 1} Marienplatz, Munich`, { captured_at: '2020-06-05' }, [
        munich.lon,
        munich.lat + 0.01 + n * 1e-5,
      ]),
    );
    expect((await importFixture(village)).rejected).toBe(0);
    expect((await importFixture(town)).rejected).toBe(0);
    // A name of two words, which its addresses hold together (as if independent: 19 expected).
    const sf = LOCALITIES.find((p) => p.key === 'sf-us')!;
    const sfRecords = Array.from({ length: SF_RECORDS }, (_, n) =>
      feature(`${n + 1} Market Street, San Francisco`, {}, [sf.lon + n * 1e-5, sf.lat]),
    );
    expect((await importFixture(sfRecords)).rejected).toBe(0);
    await linkRecord(
      sfRecords.map((r) => r.id),
      { locality: 'sf-us' },
    );
    await linkRecord(
      [...village, ...town].map((r) => r.id),
      { locality: 'munich' },
    );
    // "First read" is the table's physical order, which the UPDATE above (rows placed in index order or
    // in space autovacuum freed) leaves to chance: rewrite the table in capture order, village first.
    await withClient((c) => c.query('CLUSTER imagery USING imagery_captured_at_idx; ANALYZE imagery'));
    ({ moduleRef, search } = await startSearchService());
  }, 120_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  it('lists every match once across the pages, the pinned records first', async () => {
    const limit = 10;
    const first = await search({ query: 'London', limit, include: ['total'] });
    expect(first.total_exact).toBe(false); // the pinned records fill it: the rest is not counted
    // A lower bound: the pinned records, which exist (the vocabulary's estimate may be above what does).
    expect(first.total).toBe(PINNED_RECORDS_CAP);
    const walked: string[] = [];
    let pageTotal = first.pageTotal;
    for (let page = 1; page <= pageTotal; page++) {
      const r = await search({ query: 'London', limit, page, include: ['total'] });
      // Counted from the page whose next row is past the pinned records.
      expect(r.total_exact).toBe(page * limit >= PINNED_RECORDS_CAP);
      expect(r.data.length).toBeGreaterThan(0);
      pageTotal = r.pageTotal; // counted once the pages pass the pinned records
      walked.push(...r.data.map((d) => d.id));
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toHaveLength(LONDON_RECORDS + OTHERS);
    expect(walked.slice(0, PINNED_RECORDS_CAP).every((id) => londonIds.has(id))).toBe(true);
  });

  // A page the place's records fill reports them (a lower bound), not the vocabulary's estimate; the
  // last page they fill says another follows.
  it("reports the place's records as a lower bound on a page they fill", async () => {
    const r = await search({ query: 'San Francisco', limit: 10, include: ['total'] });
    expect(r.total_exact).toBe(false);
    expect(r.total).toBe(PINNED_RECORDS_CAP);
    const last = await search({ query: 'San Francisco', limit: 10, page: r.pageTotal, include: ['total'] });
    expect(last.data).toHaveLength(10);
    expect(last.pageTotal).toBe(Math.ceil(SF_RECORDS / 10));
  });

  // A named locality's pinned records are looked for among its first LOCALITY_RECORDS_READ: a town
  // whose first records name a village linked to it pins none of the later ones that name it (but
  // those within CENTRE_RADIUS_M of its point, read nearest first, which here there are none of).
  it("pins a town's records only from its first records read: past them its matches rank by text", async () => {
    const r = await search({ query: 'Munich', limit: 10, include: ['total', 'score'] });
    expect(r.total).toBe(20);
    expect(r.data).toHaveLength(10);
    expect(Math.max(...r.data.map((d) => d.score!))).toBeLessThan(30); // no place bonus: not pinned
  });

  // A region is read like no filter, within the region: the named places' records rank first, so on
  // a page they fill the other matches are counted, not scored (similarity() is most of a match's
  // cost: `Houston` in US-TX at 1M records, 15.9 -> 9.3 ms for the statement).
  it('in a region: every match once, the pinned records first; where they fill the page, the rest is not scored', async () => {
    const limit = 10;
    const walked: string[] = [];
    let pageTotal = 1;
    for (let page = 1; page <= pageTotal; page++) {
      const r = await search({ query: 'London', limit, page, region: 'GB-ENG', include: ['total'] });
      expect(r.total_exact).toBe(true);
      pageTotal = r.pageTotal;
      walked.push(...r.data.map((d) => d.id));
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toHaveLength(LONDON_RECORDS + OTHERS);
    expect(walked.slice(0, PINNED_RECORDS_CAP).every((id) => londonIds.has(id))).toBe(true);

    const prisma = moduleRef.get(PrismaService);
    const repo = moduleRef.get(SearchRepository);
    const london = { regionCode: 'GB-ENG', countryCode: 'GB' };
    const tools = placePlanTools(() => ({ prisma, service: prisma, repo, rare: 'London', london }));
    const { sql } = await tools.textSearch('London', { region: 'GB-ENG' });
    expect(LONDON_RECORDS + OTHERS).toBeLessThan(SCORE_CAP); // all of them would be scored otherwise
    expect(await similarityCalls(prisma, sql)).toBeLessThanOrEqual(PINNED_RECORDS_CAP + limit);
  });

  // With imagery distributed (Citus) the statements take other forms (a query per named place, the
  // pins-fill test as a join, the tail's constant LIMIT: docs/scaling.md#citus); run on one server they
  // must answer exactly as the forms it uses.
  it('answers the same in the forms it sends when imagery is distributed', async () => {
    const prisma = moduleRef.get(PrismaService);
    const bodies = [
      ...[1, 2, 20, 21, 26].map((page) => ({ query: 'London', limit: 10, page })),
      ...[1, 2, 5].map((page) => ({ query: 'London', limit: 10, page, region: 'GB-ENG' })),
      ...[1, 20, 22].map((page) => ({ query: 'San Francisco', limit: 10, page })),
      { query: 'Munich', limit: 10 },
      { query: 'Baker Street London', limit: 10 },
    ].map((b) => ({ ...b, include: ['total', 'score'] }));
    const answers = async (distributed: boolean) => {
      prisma.imageryDistributed = distributed;
      try {
        return await Promise.all(bodies.map((b) => search(b)));
      } finally {
        prisma.imageryDistributed = false;
      }
    };
    const single = await answers(false);
    expect(single.every((a) => a.data.length > 0)).toBe(true);
    expect(await answers(true)).toEqual(single);
  });
});

// How many times a statement calls similarity() (pg_trgm), as PostgreSQL counts it in its transaction.
async function similarityCalls(prisma: PrismaService, sql: Prisma.Sql): Promise<number> {
  const [, , [row]] = await prisma.$transaction([
    prisma.$executeRawUnsafe(`SET LOCAL track_functions = 'all'`),
    prisma.$queryRawUnsafe(sql.text, ...sql.values),
    prisma.$queryRawUnsafe<Array<{ n: number }>>(
      `SELECT pg_stat_get_xact_function_calls('similarity(text,text)'::regprocedure)::int AS n`,
    ),
  ]);
  return row.n;
}
