import { circleBounds } from '../../src/search/sql/circle-bounds';
import { parseCoordinates } from '../../src/search/query/coordinates';
import { interpretQuery } from '../../src/search/query/query-interpretation';
import { SearchException } from '../../src/search/search.exception';

describe('parseCoordinates', () => {
  it.each([
    ['47.1427, 9.5188', 47.1427, 9.5188],
    ['47.1427 9.5188', 47.1427, 9.5188],
    ['47.1427,9.5188', 47.1427, 9.5188],
    ['47.1427;9.5188', 47.1427, 9.5188],
    ['-33.8568, 151.2153', -33.8568, 151.2153],
    ['+47.1, -9.5', 47.1, -9.5],
    ['47.1427N 9.5188E', 47.1427, 9.5188],
    ['N47.1427 E9.5188', 47.1427, 9.5188],
    ['33.8568 S, 151.2153 E', -33.8568, 151.2153],
    ['9.5188 E 47.1427 N', 47.1427, 9.5188],
    [`47°08'33.8"N 9°31'07.7"E`, 47 + 8 / 60 + 33.8 / 3600, 9 + 31 / 60 + 7.7 / 3600],
    ['47°08′33.8″N 9°31′07.7″E', 47 + 8 / 60 + 33.8 / 3600, 9 + 31 / 60 + 7.7 / 3600],
    [`N 47° 8.563' E 9° 31.128'`, 47 + 8.563 / 60, 9 + 31.128 / 60],
    [`33°51'24"S 151°12'55"E`, -(33 + 51 / 60 + 24 / 3600), 151 + 12 / 60 + 55 / 3600],
    ['47°N 9°W', 47, -9],
  ])('reads %s', (query, lat, lon) => {
    const parsed = parseCoordinates(query);
    expect(parsed).toMatchObject({ ok: true });
    if (parsed?.ok) {
      expect(parsed.point.lat).toBeCloseTo(lat, 9);
      expect(parsed.point.lon).toBeCloseTo(lon, 9);
    }
  });

  it.each([['Herrengasse 35'], ['47, 9'], ['9490 35'], ['100 N 200 W'], ['35.5 Main St'], ['47.1427'], ['1.2.3 4']])(
    'leaves %s to text search',
    (query) => expect(parseCoordinates(query)).toBeNull(),
  );

  it.each([
    ['91.5, 9.2', /latitude 91.5 is out of range.*did you mean "9.2, 91.5"/],
    ['123.4, 200.1', /latitude 123.4 is out of range/],
    ['47.1, 181.5', /longitude 181.5 is out of range/],
    ['47.1 N 9.2 N', /both coordinates are latitudes/],
    ['9.1 E, 8.2 W', /both coordinates are longitudes/],
    [`47° 61' N 9° E`, /minutes must be below 60/],
    [`47° 1' 60" N 9° E`, /seconds must be below 60/],
    ['-47.1 N, 9.2 E', /either a sign or a hemisphere/],
    ['95.5 N, 9.2 E', /latitude 95.5 is out of range/],
  ])('refuses %s with the reason', (query, reason) => {
    const parsed = parseCoordinates(query);
    expect(parsed).toMatchObject({ ok: false });
    if (parsed && !parsed.ok) expect(parsed.reason).toMatch(reason);
  });
});

describe('interpretQuery', () => {
  it('reads coordinates and searches 250 m around them', () => {
    expect(interpretQuery('47.1427, 9.5188')).toEqual({
      kind: 'coordinates',
      normalized: '47.1427,9.5188',
      point: { lat: 47.1427, lon: 9.5188 },
      radiusM: 250,
    });
  });

  it('turns impossible coordinates into a 400 naming the query', () => {
    try {
      interpretQuery('91.5, 9.2');
      throw new Error('accepted');
    } catch (e) {
      expect(e).toBeInstanceOf(SearchException);
      expect(e).toMatchObject({ status: 400, code: 'INVALID_COORDINATES', details: [{ field: 'query' }] });
    }
  });

  it('decodes a full plus code to the centre of its area', () => {
    const r = interpretQuery('8fvc9g8f+6x');
    expect(r.kind).toBe('plus_code');
    if (r.kind !== 'plus_code') return;
    expect(r.normalized).toBe('8FVC9G8F+6X');
    expect(r.point.lat).toBeCloseTo(47.365562, 5);
    expect(r.point.lon).toBeCloseTo(8.524937, 5);
    expect(r.radiusM).toBe(250);
  });

  it('widens the radius for coarse plus codes, up to 50 km', () => {
    const r = interpretQuery('8FVC0000+');
    expect(r.kind === 'plus_code' && r.radiusM).toBe(50_000);
    const block = interpretQuery('8FVC9G00+');
    expect(block.kind === 'plus_code' && block.radiusM).toBeGreaterThan(250);
  });

  it('recovers a short plus code from the near point, and refuses one without', () => {
    const r = interpretQuery('9G8F+6X', { lat: 47.4, lon: 8.5 });
    expect(r).toMatchObject({ kind: 'plus_code', normalized: '8FVC9G8F+6X' });
    expect(() => interpretQuery('9G8F+6X')).toThrow(/short plus code/);
  });

  it('searches anything else as text, noise removed', () => {
    expect(interpretQuery('Tübinger Straße 12')).toMatchObject({ kind: 'text', normalized: 'tubinger strasse 12' });
    expect(interpretQuery('%#$@*&l;der#$!')).toEqual({ kind: 'text', normalized: '', text: null });
    expect(interpretQuery('C++')).toMatchObject({ kind: 'text' });
  });
});

describe('circleBounds', () => {
  const R = 6_371_008.7714;
  const metresPerDegree = (2 * Math.PI * R) / 360;

  it('holds the whole circle, with a hair of margin', () => {
    const b = circleBounds({ lat: 47.14, lon: 9.52 }, 1000);
    expect(b.north - 47.14).toBeGreaterThan(1000 / metresPerDegree);
    expect(b.north - 47.14).toBeLessThan(1001 / metresPerDegree);
    expect(47.14 - b.south).toBeCloseTo(b.north - 47.14, 12);
    // Longitude degrees are shorter away from the equator: the box is wider in degrees.
    expect(b.east - 9.52).toBeGreaterThan(1000 / (metresPerDegree * Math.cos((47.14 * Math.PI) / 180)));
    expect(b.east - 9.52).toBeLessThan(1001 / (metresPerDegree * Math.cos((47.14 * Math.PI) / 180)));
  });

  it('crosses the antimeridian as west > east', () => {
    const b = circleBounds({ lat: -15, lon: 179.9 }, 50_000);
    expect(b.west).toBeGreaterThan(179);
    expect(b.east).toBeLessThan(-179);
  });

  it('spans every longitude around a pole', () => {
    expect(circleBounds({ lat: 89.9, lon: 10 }, 50_000)).toMatchObject({ west: -180, east: 180, north: 90 });
    expect(circleBounds({ lat: -89.99, lon: 10 }, 5_000)).toMatchObject({ west: -180, east: 180, south: -90 });
  });
});
