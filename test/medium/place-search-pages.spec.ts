import { TestingModule } from '@nestjs/testing';
import { PINNED_RECORDS_CAP } from '../../src/search/search-limits';
import { insertPlaces, linkRecord, resetPlaces } from '../helpers/places';
import { LOCALITIES } from '../helpers/place-search-gazetteer';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// A place with more records than are pinned (PINNED_RECORDS_CAP): the pages its pinned records fill
// are answered from them alone (the total estimated), the later ones from every match (counted).
// Walking the pages must still list every match once.
describe('search that knows places: paging past the pinned records', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<{ data: Array<{ id: string }>; pageTotal: number; total_exact?: boolean }>;
  const LONDON_RECORDS = PINNED_RECORDS_CAP + 40;
  const OTHERS = 25; // addresses that hold the word "London" but are no London's imagery
  const londonIds = new Set<string>();

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
    for (const r of records) await linkRecord(r.id, { locality: 'london-gb' });
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
    expect(first.total_exact).toBe(false); // the pinned records fill it: the rest is estimated
    const walked: string[] = [];
    let pageTotal = first.pageTotal;
    for (let page = 1; page <= pageTotal; page++) {
      const r = await search({ query: 'London', limit, page, include: ['total'] });
      expect(r.total_exact).toBe(page * limit > PINNED_RECORDS_CAP);
      pageTotal = r.pageTotal; // counted once the pages pass the pinned records
      walked.push(...r.data.map((d) => d.id));
    }
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toHaveLength(LONDON_RECORDS + OTHERS);
    expect(walked.slice(0, PINNED_RECORDS_CAP).every((id) => londonIds.has(id))).toBe(true);
  });
});
