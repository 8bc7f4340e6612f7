import { AppValidationPipe } from '../../src/common/validation.pipe';
import { interpretQuery } from '../../src/search/query/query-interpretation';
import { planSearch, rangeWindow, sectorWindow } from '../../src/search/planning/search-planner';
import { SearchRequestDto } from '../../src/search/dto/search-request.dto';

const pipe = new AppValidationPipe();
const validated = (body: object) =>
  pipe.transform(body, { type: 'body', metatype: SearchRequestDto }) as Promise<SearchRequestDto>;
async function plan(body: object) {
  const request = await validated(body);
  return planSearch(request, request.query === undefined ? null : interpretQuery(request.query, request.near));
}

// The centre of the plus code 8FVC9G8F+6X, as interpretQuery rounds it.
const ZURICH_CODE = { lat: 47.3655625, lon: 8.5249375 };

describe('heading windows', () => {
  it('uses the sectors of the response compass', () => {
    expect(sectorWindow('N')).toEqual({ from: 337.5, to: 22.5, toInclusive: false });
    expect(sectorWindow('NE')).toEqual({ from: 22.5, to: 67.5, toInclusive: false });
    expect(sectorWindow('W')).toEqual({ from: 247.5, to: 292.5, toInclusive: false });
    expect(sectorWindow('NW')).toEqual({ from: 292.5, to: 337.5, toInclusive: false });
  });

  it('takes heading ranges inclusively and lets them wrap through north', () => {
    expect(rangeWindow(10, 20)).toEqual({ from: 10, to: 20, toInclusive: true });
    expect(rangeWindow(350, 10)).toEqual({ from: 350, to: 10, toInclusive: true });
    expect(rangeWindow(0, 360)).toEqual({ from: 0, to: 360, toInclusive: true });
    expect(rangeWindow(360, 360)).toEqual({ from: 0, to: 0, toInclusive: true });
  });
});

describe('planSearch', () => {
  it('sorts text by relevance, points by distance, areas by date', async () => {
    expect((await plan({ query: 'Vaduz' })).plan.sort).toBe('relevance');
    expect((await plan({ query: '47.1, 9.5' })).plan.sort).toBe('distance');
    expect((await plan({ near: { lat: 47.1, lon: 9.5 } })).plan.sort).toBe('distance');
    expect((await plan({ looking_at: { lat: 47.1, lon: 9.5 } })).plan.sort).toBe('distance');
    expect((await plan({ bbox: [9, 47, 10, 48] })).plan.sort).toBe('newest');
    expect((await plan({ query: 'Vaduz', near: { lat: 47.1, lon: 9.5 } })).plan.sort).toBe('relevance');
  });

  it('reads relevance for a coordinate query as nearest first', async () => {
    expect((await plan({ query: '47.1, 9.5', sort: 'relevance' })).plan.sort).toBe('distance');
  });

  it('measures distance from the query point, else near, else the looking_at target', async () => {
    const near = { lat: 47.2, lon: 9.6, radius_m: 1000 };
    const target = { lat: 47.3, lon: 9.7 };
    expect((await plan({ query: '47.1, 9.5', looking_at: target })).plan.anchor).toEqual({
      lat: 47.1,
      lon: 9.5,
      radiusM: 250,
    });
    expect((await plan({ query: '8FVC9G8F+6X', near, looking_at: target })).plan.anchor).toEqual({
      ...ZURICH_CODE,
      radiusM: 250,
    });
    expect((await plan({ query: 'x', near, looking_at: target })).plan.anchor).toEqual({
      lat: 47.2,
      lon: 9.6,
      radiusM: 1000,
    });
    expect((await plan({ looking_at: target })).plan.anchor).toEqual({ ...target, radiusM: 250 });
    expect((await plan({ query: 'x', bbox: [9, 47, 10, 48] })).plan.anchor).toBeNull();
  });

  it('combines every filter', async () => {
    const { plan: p } = await plan({
      query: '8FVC9G8F+6X',
      near: { lat: 47.2, lon: 9.6, radius_m: 1000 },
      looking_at: { lat: 47.3, lon: 9.7, fov_deg: 60, radius_m: 40 },
      bbox: [170, -10, -170, 10],
      captured_after: '2020-01-01',
      captured_before: '2020-12-31',
      interactive: false,
      facing: 'S',
    });
    expect(p.filters).toEqual({
      circles: [
        { ...ZURICH_CODE, radiusM: 250 },
        { lat: 47.2, lon: 9.6, radiusM: 1000 },
        { lat: 47.3, lon: 9.7, radiusM: 40 },
      ],
      bbox: { west: 170, south: -10, east: -170, north: 10 },
      capturedAfter: '2020-01-01',
      capturedBefore: '2020-12-31',
      interactive: false,
      heading: { from: 157.5, to: 202.5, toInclusive: false },
      lookingAt: { lat: 47.3, lon: 9.7, halfFovDeg: 30 },
    });
  });

  it('drops the heading test for a 360-degree field of view', async () => {
    expect((await plan({ looking_at: { lat: 1, lon: 2, fov_deg: 360 } })).plan.filters.lookingAt).toBeUndefined();
  });

  it('scopes result ids by the filters with defaults applied, and a sort only when it is not the default', async () => {
    const a = await plan({ query: 'x', near: { lat: 1, lon: 2 }, sort: 'relevance' });
    expect(a.scope).toEqual({ filters: { near: { lat: 1, lon: 2, radius_m: 250 } }, sort: undefined });
    const b = await plan({ query: 'x', sort: 'oldest', include: ['score'] });
    expect(b.scope).toEqual({ filters: {}, sort: 'oldest' });
  });

  it('takes near.radius_m as the radius around coordinates in the query: near without a point, or at the same point', async () => {
    for (const near of [
      { radius_m: 5000 },
      { lat: 34.07, lon: -118.4, radius_m: 5000 },
      { lat: 34.0700000001, lon: -118.4, radius_m: 5000 },
    ]) {
      const { plan: p, scope } = await plan({ query: '34.07, -118.40', near });
      expect(p.anchor).toEqual({ lat: 34.07, lon: -118.4, radiusM: 5000 });
      expect(p.filters.circles).toEqual([{ lat: 34.07, lon: -118.4, radiusM: 5000 }]);
      expect(p.sort).toBe('distance');
      // Either form is the same search.
      expect(scope).toEqual({ filters: { near: { radius_m: 5000 } }, sort: undefined });
    }
    // A plus code's radius too (its own would be 250 m), and the default radius when near gives none.
    expect((await plan({ query: '8FVC9G8F+6X', near: { radius_m: 3000 } })).plan.filters.circles).toEqual([
      { ...ZURICH_CODE, radiusM: 3000 },
    ]);
    expect((await plan({ query: '34.07, -118.40', near: {} })).plan.anchor).toEqual({
      lat: 34.07,
      lon: -118.4,
      radiusM: 250,
    });
  });

  it.each([
    [
      { query: '34.07, -118.40', near: { lat: 34.08, lon: -118.4, radius_m: 5000 } },
      /near \(34.08, -118.4\) is another point than the coordinates in query \(34.07,-118.4\)/,
    ],
    [{ query: 'Vaduz', near: { radius_m: 5000 } }, /near needs lat and lon unless query is coordinates or a plus code/],
    [{ near: { radius_m: 5000 } }, /near needs lat and lon unless query is coordinates or a plus code/],
  ])('refuses a near that contradicts the query or has no point to be near: %j', async (body, message) => {
    const error = await plan(body).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ status: 400, code: 'INVALID_REQUEST', message: expect.stringMatching(message) });
    expect((error as { details: unknown }).details).toEqual([
      { field: 'near', message: expect.stringMatching(message) },
    ]);
  });

  it('refuses half a point in near, naming the missing coordinate', async () => {
    await expect(validated({ query: '34.07, -118.40', near: { lat: 34.07 } })).rejects.toMatchObject({
      details: [{ field: 'near.lon', message: 'near.lon must be a number between -180 and 180' }],
    });
  });

  it.each([
    [{ query: 'Vaduz', sort: 'distance' }, /sort distance needs a point/],
    [{ bbox: [9, 47, 10, 48], sort: 'distance' }, /sort distance needs a point/],
    [{ bbox: [9, 47, 10, 48], sort: 'relevance' }, /sort relevance needs a query/],
  ])('refuses %j', async (body, message) => {
    await expect(plan(body)).rejects.toMatchObject({
      status: 400,
      code: 'INVALID_SORT',
      message: expect.stringMatching(message),
    });
  });
});
