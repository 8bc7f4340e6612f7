import { TestingModule } from '@nestjs/testing';
import { SearchResponseDto } from '../../src/search/search-response.dto';
import { CATEGORY_RECORDS_PER_POI } from '../../src/search/sql/category-search.sql';
import { insertPlaces, offset, resetPlaces } from '../helpers/places';
import { startSearchService } from '../helpers/search-service';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// A poi with more records at one distance than it shows (CATEGORY_RECORDS_PER_POI): which it shows is
// the nearest, then the lowest ids, the same on every database (the statement ranks the records
// within reach per poi; it used to take the first the geography index returned).
const POI: [number, number] = [9.5215, 47.141];

describe('search by category: records at one distance from a poi', () => {
  let moduleRef: TestingModule;
  let search: (body: object) => Promise<SearchResponseDto>;
  const nearest = feature('Herrengasse 1, 9490 Vaduz', {}, offset(POI, 5, 0));
  const tied = Array.from({ length: CATEGORY_RECORDS_PER_POI + 5 }, (_, i) =>
    feature(`Herrengasse ${i + 10}, 9490 Vaduz`, {}, offset(POI, 20, 0)),
  );

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces([
      {
        key: 'loewen',
        kind: 'poi',
        name: 'Gasthof Löwen',
        label: 'Gasthof Löwen, Vaduz',
        lon: POI[0],
        lat: POI[1],
        importance: 0.05,
        category: 'amenity=restaurant',
      },
    ]);
    expect((await importFixture([nearest, ...tied])).rejected).toBe(0);
    ({ moduleRef, search } = await startSearchService());
  });

  afterAll(async () => {
    await moduleRef?.close();
    await resetImagery();
    await resetPlaces();
  });

  it('shows the nearest record, then the lowest ids of those at one distance', async () => {
    const found = await search({ query: 'restaurant', limit: 50, include: ['total'] });
    const lowest = tied
      .map((f) => f.id)
      .sort()
      .slice(0, CATEGORY_RECORDS_PER_POI - 1);
    expect(found.data.map((d) => d.id)).toEqual([nearest.id, ...lowest]);
  });
});
