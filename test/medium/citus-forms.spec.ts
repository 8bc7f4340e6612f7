import { Prisma } from '@prisma/client';
import { PLAIN_SHAPE, TextQueryShape } from '../../src/search/planning/index-choice';
import { PINNED_RECORDS_CAP, SCORE_CAP } from '../../src/search/paging/search-limits';
import { samplePlan, sampleText } from '../../src/search/sql/search-sql.samples';
import { PlacePins } from '../../src/search/sql/place-pins.sql';
import { fullTextSql } from '../../src/search/sql/text-search.sql';
import { insertPlaces, linkRecord, resetPlaces, testPlaceId, withClient } from '../helpers/places';
import { LOCALITIES } from '../helpers/place-search-gazetteer';
import { feature, importFixture, resetImagery } from '../helpers/test-app';

// With imagery distributed (Citus) the text search's statements take other forms: a query per named
// place instead of a LATERAL probe per place, the head's pins-fill test as a join, a tail read from
// imagery with a constant LIMIT (docs/scaling.md#citus). Run on one server they must return exactly the
// rows of the forms it sends, in the same order: the named places' records past the cap (the cut falls
// in the second place), pages of the head and of the tail past SCORE_CAP, a broad word's tail.
describe('the Citus forms of the text search answer as the single-server forms', () => {
  const PER_PLACE = PINNED_RECORDS_CAP * 0.75; // two Londons: the cap is reached in the second
  const OTHERS = SCORE_CAP + 200; // matches of "London" that are neither London's imagery
  const place = (key: string) => LOCALITIES.find((p) => p.key === key)!;
  const london = place('london-gb');
  const pins: PlacePins = {
    ids: [testPlaceId('london-gb'), testPlaceId('london-ca'), testPlaceId('new-london')],
    scores: [40, 35, 30],
    names: ["'london'", "'london'", "'new' & 'london'"],
    nameWords: ['london'],
    views: [],
    centre: { id: testPlaceId('london-gb'), lon: london.lon, lat: london.lat },
  };

  beforeAll(async () => {
    await resetImagery();
    await resetPlaces();
    await insertPlaces(LOCALITIES);
    const at = (key: string, n: number): [number, number] => [place(key).lon + 0.01 + n * 1e-5, place(key).lat];
    const gb = Array.from({ length: PER_PLACE }, (_, n) =>
      feature(`${n + 1} Baker Street, London`, {}, at('london-gb', n)),
    );
    const ca = Array.from({ length: PER_PLACE }, (_, n) =>
      feature(`${n + 1} Dundas Street, London`, {}, at('london-ca', n)),
    );
    const others = Array.from({ length: OTHERS }, (_, n) =>
      feature(`${n + 1} ${'London '.repeat(1 + (n % 3))}Road, Croydon`, {}, at('croydon', n)),
    );
    expect((await importFixture([...gb, ...ca, ...others])).rejected).toBe(0);
    await linkRecord(
      gb.map((r) => r.id),
      { locality: 'london-gb' },
    );
    await linkRecord(
      ca.map((r) => r.id),
      { locality: 'london-ca' },
    );
    await linkRecord(
      others.map((r) => r.id),
      { locality: 'croydon' },
    );
    await withClient((c) => c.query('ANALYZE imagery'));
  }, 120_000);

  afterAll(async () => {
    await resetImagery();
    await resetPlaces();
  });

  const rows = (sql: Prisma.Sql) =>
    withClient(async (c) => JSON.stringify((await c.query(sql.text, sql.values as unknown[])).rows));

  const shapes: Array<[string, TextQueryShape]> = [
    ['counted', PLAIN_SHAPE],
    ['broad', { ...PLAIN_SHAPE, broad: true, estimate: null }],
    ['broad, estimated', { ...PLAIN_SHAPE, broad: true, estimate: 50_000 }],
  ];
  const windows = [0, 140, 150, 190, 200, 990, 1_000, 1_300, 1_500].map((offset) => ({ limit: 20, offset }));

  it.each(shapes)('%s: every page the same rows in the same order', async (_, shape) => {
    let nonEmpty = 0;
    for (const window of windows) {
      const [single, distributed] = (['single', 'citus'] as const).map((layout) =>
        fullTextSql(sampleText('London'), window, samplePlan({ query: 'London' }), shape, pins, layout),
      );
      expect(distributed.text).not.toBe(single.text);
      const expected = await rows(single);
      expect(await rows(distributed)).toBe(expected);
      if (expected !== '[]' && !expected.includes('"id":null')) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThanOrEqual(windows.length - 1);
  });
});
