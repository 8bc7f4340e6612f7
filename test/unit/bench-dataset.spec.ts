import { parseFeature } from '../../src/imagery/imagery-feature';
import { toFeature } from '../helpers/imagery-files';
import { benchRecords, benchStreet, benchStreets, streetRecords } from '../bench/bench-dataset';
import { DEEP_PAGE, QUERY_CLASSES, queryBodies, typedSoFar, typoOf } from '../bench/bench-queries';
import { streetPlaces } from '../bench/bench-search-places';
import { toRequestDto } from '../bench/bench-statements';
import { seededRandom } from '../../src/common/deterministic-random';

const SAMPLE = 20_000;
const records = [...benchRecords(8, SAMPLE)];
const share = (n: number) => n / records.length;

describe('bench dataset', () => {
  it('is deterministic: the same seed gives the same records, another seed others', () => {
    expect([...benchRecords(8, 2000)]).toEqual(records.slice(0, 2000));
    const other = [...benchRecords(9, 2000)];
    expect(other.filter((r, i) => r.id === records[i].id)).toHaveLength(0);
  });

  it('has exactly the requested number of records, with unique ids', () => {
    expect(records).toHaveLength(SAMPLE);
    expect(new Set(records.map((r) => r.id)).size).toBe(SAMPLE);
    expect([...benchRecords(8, 1)]).toHaveLength(1);
  });

  it('gives only records the importer accepts, with absolute image URLs', () => {
    for (const r of records) {
      const parsed = parseFeature(toFeature(r));
      if (!parsed.ok) throw new Error(`${JSON.stringify(r)}: ${JSON.stringify(parsed.rejection)}`);
      expect(parsed.record.id).toBe(r.id);
      expect(r.image_url).toMatch(/^https:\/\/images\.example\.org\/bench\/[0-9a-f-]{36}\.jpg$/);
      expect(r.captured_at >= '2008-01-01' && r.captured_at <= '2025-12-31').toBe(true);
    }
  });

  it('captures each address several times, most often in recent years', () => {
    const addresses = new Set(records.map((r) => r.address)).size;
    expect(records.length / addresses).toBeGreaterThan(1.8);
    expect(records.length / addresses).toBeLessThan(4);
    const year = (y: number) => records.filter((r) => r.captured_at.startsWith(String(y))).length;
    expect(year(2023) + year(2024) + year(2025)).toBeGreaterThan(3 * (year(2008) + year(2009) + year(2010)));
  });

  it('makes "Street" the commonest type, most images panoramas, and addresses real places', () => {
    const streets = records.filter((r) => / Street, /.test(r.address)).length;
    expect(share(streets)).toBeGreaterThan(0.25);
    expect(share(streets)).toBeLessThan(0.45);
    expect(share(records.filter((r) => r.interactive).length)).toBeGreaterThan(0.75);
    expect(share(records.filter((r) => r.interactive).length)).toBeLessThan(0.95);
    expect(share(records.filter((r) => r.address.endsWith(', United States')).length)).toBeGreaterThan(0.5);
  });

  it('points most cameras along the street axis', () => {
    let along = 0;
    let total = 0;
    for (let i = 0; i < 200; i++) {
      const street = benchStreet(8, i);
      for (const r of streetRecords(8, street)) {
        const off = Math.abs(((r.heading - street.axis + 540) % 180) - 0);
        along += Math.min(off, 180 - off) <= 20 ? 1 : 0;
        total++;
      }
    }
    expect(along / total).toBeGreaterThan(0.75);
  });

  it('places records within a few km of their street', () => {
    for (let i = 0; i < 50; i++) {
      const street = benchStreet(8, i);
      for (const r of streetRecords(8, street)) {
        expect(Math.abs(r.lat - street.houses[0].lat)).toBeLessThan(0.05);
      }
    }
  });
});

describe('bench query classes', () => {
  const bodies = queryBodies(8, SAMPLE, 30);

  it('gives every class bodies that our validation accepts', async () => {
    for (const cls of QUERY_CLASSES) {
      expect(bodies[cls].length).toBeGreaterThan(0);
      for (const body of bodies[cls]) await expect(toRequestDto(body)).resolves.toBeDefined();
    }
  });

  it('asks for places of the dataset: shared city names, as typed, in their region, and its address places', () => {
    const streets = [...benchStreets(8, SAMPLE)];
    const cities = new Set(streets.map((s) => s.place.city));
    for (const b of [...bodies.place, ...bodies.place_region]) expect(cities.has(b.query!)).toBe(true);
    for (const b of bodies.place_region) expect(b.region).toMatch(/^[A-Z]{2}(-[A-Z0-9]{1,3})?$/);
    expect(typedSoFar('San Francisco')).toBe('San Fr');
    expect(typedSoFar('Springfield')).toBe('Springf');
    const houses = new Set(streets.flatMap((s) => s.houses.map((h) => `${h.number} ${s.name}, ${s.place.city}`)));
    for (const b of bodies.address_view) expect(houses.has(b.query!)).toBe(true);
    // One street place and an address place per house, every one the place importer's format.
    const places = [...streetPlaces(8, streets[0])] as Array<{ properties: Record<string, string> }>;
    expect(places.map((p) => p.properties.kind)).toEqual(['street', ...streets[0].houses.map(() => 'address')]);
    expect(places[1].properties).toMatchObject({
      housenumber: String(streets[0].houses[0].number),
      street: streets[0].name,
      locality: streets[0].place.city,
    });
  });

  it('asks for addresses and streets that are in the dataset', () => {
    const addresses = new Set(records.map((r) => r.address));
    for (const b of bodies.exact) expect(addresses.has(b.query!)).toBe(true);
    expect(new Set(bodies.exact.map((b) => b.query)).size).toBe(bodies.exact.length);
    expect(queryBodies(8, SAMPLE, 30)).toEqual(bodies);
  });

  it('changes exactly one letter for a typo', () => {
    const rand = seededRandom(1);
    for (const b of bodies.street_city) {
      const query = b.query!;
      const typo = typoOf(query, rand);
      expect(typo).toHaveLength(query.length);
      expect([...typo].filter((c, i) => c.toLowerCase() !== query[i].toLowerCase())).toHaveLength(1);
    }
  });

  it('asks deep pages of searches that hold them: page 50 of a word many streets share, and of a circle around a busy place', () => {
    // A share that holds the page's 500 records from half a million records up (the bench runs 1M).
    for (const b of bodies.deep_text) {
      expect(b.page).toBe(DEEP_PAGE);
      expect(share(records.filter((r) => r.address.includes(` ${b.query} `)).length)).toBeGreaterThan(
        (DEEP_PAGE * 10) / 500_000,
      );
    }
    // At the bench's million records the page's 500 (the sample's places are the busiest it has).
    const [lat, lon] = bodies.deep_coordinates[0].query!.split(',').map(Number);
    expect(bodies.deep_coordinates[0]).toMatchObject({ page: DEEP_PAGE, near: { radius_m: 10_000 } });
    const metres = (r: { lon: number; lat: number }) =>
      Math.hypot((r.lon - lon) * Math.cos((lat * Math.PI) / 180), r.lat - lat) * 111_320;
    expect(share(records.filter((r) => metres(r) <= 10_000).length)).toBeGreaterThan((DEEP_PAGE * 10) / 1_000_000);
  });

  it('covers the dataset with streets', () => {
    expect([...benchStreets(8, SAMPLE)].length).toBeGreaterThan(SAMPLE / 60);
  });
});
