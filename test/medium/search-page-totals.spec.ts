import { TestingModule } from '@nestjs/testing';
import { insertPlaces, linkRecord, resetPlaces } from '../helpers/places';
import { LOCALITIES } from '../helpers/place-search-gazetteer';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// pageTotal is never above what exists: a total the vocabulary estimates (the named place's records
// fill the page, so the other matches are not read) is reported as a lower bound.
describe('page totals: estimated, never above what exists', () => {
  let moduleRef: TestingModule;
  let search: (
    body: object,
  ) => Promise<{ data: Array<{ id: string }>; pageTotal: number; total?: number; total_exact?: boolean }>;
  const SF_RECORDS = 30;

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(LOCALITIES);
    const sf = LOCALITIES.find((p) => p.key === 'sf-us')!;
    const sfRecords = Array.from({ length: SF_RECORDS }, (_, n) =>
      feature(`${n + 1} Market Street, San Francisco`, {}, [sf.lon + n * 1e-5, sf.lat]),
    );
    // Each word of the name elsewhere, never both: the words "together" (as the rarest) are in 90
    // addresses, the name in 30.
    const san = Array.from({ length: 60 }, (_, n) =>
      feature(`${n + 1} San Pablo Avenue, Oakland`, {}, [-122.27 + n * 1e-5, 37.8]),
    );
    const francisco = Array.from({ length: 60 }, (_, n) =>
      feature(`${n + 1} Francisco Street, Berkeley`, {}, [-122.28 + n * 1e-5, 37.87]),
    );
    expect((await importFixture([...sfRecords, ...san, ...francisco])).rejected).toBe(0);
    await linkRecord(
      sfRecords.map((r) => r.id),
      { locality: 'sf-us' },
    );
    ({ moduleRef, search } = await startSearchService());
  }, 60_000);

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  it('has records on every page up to pageTotal, and lists every match once', async () => {
    const limit = 10;
    const walked: string[] = [];
    let pageTotal = 1;
    for (let page = 1; page <= pageTotal; page++) {
      const r = await search({ query: 'San Francisco', limit, page, include: ['total'] });
      expect({ page, records: r.data.length > 0 }).toEqual({ page, records: true });
      expect(r.total!).toBeLessThanOrEqual(SF_RECORDS);
      pageTotal = r.pageTotal;
      walked.push(...r.data.map((d) => d.id));
    }
    expect(new Set(walked).size).toBe(SF_RECORDS);
    expect(walked).toHaveLength(SF_RECORDS);
  });
});
