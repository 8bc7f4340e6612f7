import { ContractProxy } from '../helpers/contract';
import { startSearchApi } from '../helpers/search-api';
import { ids } from '../helpers/fixtures';
import { photoDetails } from '../helpers/photo-details';
import { feature, importFixture, prismaClient } from '../helpers/test-app';

const RESPONSE_KEYS = ['data', 'isSuccess', 'page', 'pageTotal', 'region', 'region_id', 'result_id'];
const RECORD_KEYS = ['address', 'compass', 'date', 'geometry', 'id', 'image', 'interactive'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('POST /search', () => {
  let contract: ContractProxy;
  let key: string;
  // Through Prism: every response is checked against the OpenAPI document.
  const api = () => contract.http;
  const search = (body: unknown) =>
    api()
      .post('/search')
      .set('x-api-key', key)
      .send(body as object);

  beforeAll(async () => {
    ({ contract, key } = await startSearchApi());
  });

  afterEach(() => expect(contract.takeViolations()).toEqual([]));
  afterAll(() => contract.close());

  describe('the contract', () => {
    it('answers with exactly the contract keys and types', async () => {
      const res = await search({ query: 'Herrengasse 35', limit: 5, page: 1 }).expect(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(Object.keys(res.body).sort()).toEqual(RESPONSE_KEYS);
      expect(res.body).toMatchObject({ isSuccess: true, page: 1, region: 'global', region_id: null });
      expect(res.body.result_id).toMatch(UUID);
      expect(res.body.pageTotal).toBe(1);
      for (const r of res.body.data) {
        expect(Object.keys(r).sort()).toEqual(RECORD_KEYS);
        expect(r.id).toMatch(UUID);
        expect(typeof r.address).toBe('string');
        expect(r.date).toMatch(
          /^(January|February|March|April|May|June|July|August|September|October|November|December) [1-9]\d?, \d{4}$/,
        );
        expect(r.compass).toMatch(
          /^Facing (North|Northeast|East|Southeast|South|Southwest|West|Northwest) \((N|NE|E|SE|S|SW|W|NW)\)$/,
        );
        expect(typeof r.interactive).toBe('boolean');
        expect(Object.keys(r.geometry).sort()).toEqual(['coordinates', 'type']);
        expect(r.geometry.type).toBe('Point');
        expect(r.geometry.coordinates).toHaveLength(2);
        expect(r.image).toMatch(/^https?:\/\//);
      }
    });

    it('formats the stored heading and date (273.1 and 2015-09-10)', async () => {
      const res = await search({ query: 'Herrengasse 35, 9490 Vaduz' }).expect(200);
      expect(res.body.data[0]).toMatchObject({
        id: ids.herrengasse35,
        address: 'Herrengasse 35, 9490 Vaduz',
        date: 'September 10, 2015',
        compass: 'Facing West (W)',
        geometry: { type: 'Point', coordinates: [9.52, 47.14] },
      });
    });

    it('joins relative image paths to IMAGE_BASE_URL', async () => {
      const res = await search({ query: 'Pagination Way 1', limit: 1 }).expect(200);
      expect(res.body.data[0].image).toBe('https://img.test/relative/one.jpg');
    });

    it('defaults limit to 10 and page to 1', async () => {
      const res = await search({ query: 'Pagination Way' }).expect(200);
      expect(res.body.page).toBe(1);
      expect(res.body.data).toHaveLength(10);
      expect(res.body.pageTotal).toBe(3);
    });

    it('answers no match with an empty page and pageTotal 0', async () => {
      const res = await search({ query: 'Nowhere Qqqxz', page: 2 }).expect(200);
      expect(res.body).toMatchObject({ page: 2, pageTotal: 0, data: [] });
    });
  });

  describe('understanding, filters and opt-in detail', () => {
    it('adds exactly the fields asked for with include, and nothing by default', async () => {
      const plain = await search({ query: 'Herrengasse 35, 9490 Vaduz', near: { lat: 47.14, lon: 9.52 } }).expect(200);
      expect(Object.keys(plain.body).sort()).toEqual(RESPONSE_KEYS);
      expect(Object.keys(plain.body.data[0]).sort()).toEqual(RECORD_KEYS);

      const res = await search({
        query: 'Herrengasse 35, 9490 Vaduz',
        near: { lat: 47.14, lon: 9.52 },
        include: ['captured_at', 'heading', 'distance_m', 'score', 'total', 'interpretation'],
      }).expect(200);
      expect(Object.keys(res.body).sort()).toEqual([...RESPONSE_KEYS, 'interpretation', 'total', 'total_exact'].sort());
      expect(res.body).toMatchObject({
        total: 1,
        total_exact: true,
        interpretation: { kind: 'text', normalized: 'herrengasse 35 9490 vaduz' },
      });
      expect(res.body.data[0]).toMatchObject({
        id: ids.herrengasse35,
        captured_at: '2015-09-10',
        heading: 273.1,
        distance_m: 0,
      });
      expect(Object.keys(res.body.data[0]).sort()).toEqual(
        [...RECORD_KEYS, 'captured_at', 'distance_m', 'heading', 'score'].sort(),
      );
      expect(typeof res.body.data[0].score).toBe('number');
      expect(res.body.result_id).toBe(plain.body.result_id);
    });

    it('answers a record without a heading (a photo that gave no direction): compass placeholder, heading null', async () => {
      const photo = photoDetails({ headingOrigin: 'none', headingReference: null });
      const f = feature('Directionless Lane 7, 9490 Vaduz', { heading: null, photo }, [9.53, 47.15]);
      expect((await importFixture([f])).rejected).toBe(0);
      const prisma = prismaClient();
      try {
        const res = await search({ query: 'Directionless Lane 7', include: ['heading', 'camera'] }).expect(200);
        expect(res.body.data).toEqual([
          expect.objectContaining({
            id: f.id,
            compass: 'Facing North (N)',
            heading: null,
            camera: expect.objectContaining({ heading_origin: 'none' }),
          }),
        ]);
      } finally {
        await prisma.$executeRaw`DELETE FROM imagery WHERE id = ${f.id}::uuid`;
        await prisma.$executeRaw`DELETE FROM photos WHERE id = ${f.id}::uuid`;
        await prisma.$disconnect();
      }
    });

    it('searches around coordinates and says how it read them', async () => {
      const res = await search({
        query: `47°08'24"N 9°31'12"E`,
        limit: 100,
        include: ['interpretation', 'distance_m'],
      }).expect(200);
      expect(res.body.interpretation).toEqual({
        kind: 'coordinates',
        normalized: '47.14,9.52',
        lat: 47.14,
        lon: 9.52,
        radius_m: 250,
      });
      expect(res.body.data.length).toBeGreaterThan(0);
      for (const r of res.body.data) expect(r.distance_m).toBeLessThanOrEqual(250);
    });

    it('takes near: { radius_m } as the radius around coordinates, and says how far the nearest record is when none is within it', async () => {
      // 47.14, 9.52 holds the fixture's records; 0.1 degrees north of it (11 km) nothing is within 250 m.
      const empty = await search({ query: '47.24, 9.52', include: ['interpretation'] }).expect(200);
      expect(empty.body.data).toEqual([]);
      const nearest = empty.body.interpretation.nearest;
      expect(nearest).toEqual({ distance_m: expect.any(Number), lat: expect.any(Number), lon: expect.any(Number) });
      expect(nearest.distance_m).toBeGreaterThan(250);
      const wider = await search({
        query: '47.24, 9.52',
        near: { radius_m: Math.ceil(nearest.distance_m) },
        include: ['interpretation', 'distance_m'],
      }).expect(200);
      expect(wider.body.data[0].geometry.coordinates).toEqual([nearest.lon, nearest.lat]);
      expect(wider.body.data[0].distance_m).toBeCloseTo(nearest.distance_m, 0);
      expect(wider.body.interpretation).toEqual({
        kind: 'coordinates',
        normalized: '47.24,9.52',
        lat: 47.24,
        lon: 9.52,
        radius_m: Math.ceil(nearest.distance_m),
      });
    });

    it('searches without a query when near, bbox or looking_at says where', async () => {
      await search({ near: { lat: 47.14, lon: 9.52, radius_m: 10 } }).expect(200);
      await search({ bbox: [9.5, 47.1, 9.6, 47.2], sort: 'oldest' }).expect(200);
      const res = await search({ looking_at: { lat: 47.14, lon: 9.52 }, interactive: false, facing: 'W' }).expect(200);
      expect(
        res.body.data.every(
          (r: { compass: string; interactive: boolean }) => r.compass === 'Facing West (W)' && !r.interactive,
        ),
      ).toBe(true);
    });

    it('gives filters and sort their own result_id, shared by every page', async () => {
      const base = { query: 'pagination way', limit: 7 };
      const a = await search({ ...base, captured_after: '2019-01-01' }).expect(200);
      const b = await search({ ...base, captured_after: '2019-01-01', page: 2 }).expect(200);
      const c = await search({ ...base, sort: 'newest' }).expect(200);
      const plain = await search(base).expect(200);
      expect(a.body.result_id).toBe(b.body.result_id);
      expect(new Set([a.body.result_id, c.body.result_id, plain.body.result_id]).size).toBe(3);
    });

    it('answers garbage with 200 and nothing', async () => {
      for (const query of ['%#$@*&l;der#$!', '🙈🙉🙊', "' OR '1'='1"]) {
        const res = await search({ query, include: ['interpretation'] }).expect(200);
        expect(res.body).toMatchObject({
          isSuccess: true,
          pageTotal: 0,
          data: [],
          interpretation: { kind: 'text', normalized: '' },
        });
      }
    });

    it.each([
      [{ query: '91.5, 9.2' }, 'INVALID_COORDINATES', 'query', /latitude 91.5 is out of range/],
      [{ query: '9G8F+6X' }, 'INVALID_PLUS_CODE', 'query', /short plus code/],
      [{ query: 'Vaduz', sort: 'distance' }, 'INVALID_SORT', 'sort', /sort distance needs a point/],
      [{ bbox: [9, 47, 10, 48], sort: 'relevance' }, 'INVALID_SORT', 'sort', /sort relevance needs a query/],
      [
        { query: 'Vaduz', include: ['everything'] },
        'INVALID_REQUEST',
        'include',
        /include has unknown name "everything"/,
      ],
      [
        { query: 'Vaduz', near: { lat: 47, lon: 9, radius_m: 60_000 } },
        'INVALID_REQUEST',
        'near.radius_m',
        /between 1 and 50000/,
      ],
      [{ query: 'Vaduz', bbox: [10, 47, 9, 46] }, 'INVALID_REQUEST', 'bbox', /minLat must be less than maxLat/],
      [
        { query: '47.14, 9.52', near: { lat: 47.2, lon: 9.52, radius_m: 5000 } },
        'INVALID_REQUEST',
        'near',
        /near \(47.2, 9.52\) is another point than the coordinates in query/,
      ],
      [
        { query: 'Vaduz', near: { radius_m: 5000 } },
        'INVALID_REQUEST',
        'near',
        /near needs lat and lon unless query is coordinates or a plus code/,
      ],
      [
        { interactive: true },
        'INVALID_REQUEST',
        'query',
        /query is required unless address, near, bbox or looking_at is given/,
      ],
      [
        { query: 'Vaduz', facing: 'N', heading: { min: 0, max: 10 } },
        'INVALID_REQUEST',
        'heading',
        /either facing or heading/,
      ],
    ])('400 for %j', async (body, code, field, message) => {
      const res = await search(body).expect(400);
      expect(res.body).toEqual({
        isSuccess: false,
        error: { code, message: expect.stringMatching(message), details: [expect.objectContaining({ field })] },
      });
    });
  });
});
